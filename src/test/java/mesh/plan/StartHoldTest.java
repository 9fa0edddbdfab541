package mesh.plan;

import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StartHoldTest {

    static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");
    /** ledger: two components with data; web: no volumes; mixed: one of two components with data. */
    static final ComponentSpec LEDGER_DB = component("ledger.db").module("ledger").volume("data", "/data").build();
    static final ComponentSpec LEDGER_WEB = component("ledger.web").module("ledger").build();
    static final ComponentSpec WEB = component("web.server").module("web").build();
    static final ComponentSpec MIXED = component("mixed.server").module("mixed").volume("state", "/state").build();
    static final Declaration D = declaration("n2", 7, LEDGER_DB, LEDGER_WEB, WEB, MIXED);

    static ObservedContainer seen(ComponentSpec c, boolean running) {
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), "d", "s", 7, running);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nothing runs, within the hold: every module with data", StartHold.from(T0), List.of(), 1,
                        Set.of("ledger", "mixed")),
                Arguments.of("all stopped, within the hold", StartHold.from(T0), List.of(seen(LEDGER_DB, false),
                        seen(LEDGER_WEB, false), seen(WEB, false), seen(MIXED, false)), 14, Set.of("ledger", "mixed")),
                Arguments.of("one component of ledger runs: it ran here, not held", StartHold.from(T0),
                        List.of(seen(LEDGER_WEB, true), seen(LEDGER_DB, false)), 1, Set.of("mixed")),
                Arguments.of("the hold is over", StartHold.from(T0), List.of(), 15, Set.of()),
                Arguments.of("the controller was heard from", StartHold.from(T0).release(), List.of(), 1, Set.of()),
                Arguments.of("a module without volumes is never held", StartHold.from(T0), List.of(seen(WEB, false)), 1,
                        Set.of("ledger", "mixed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void heldModules(String name, StartHold hold, List<ObservedContainer> observed, int secondsLater, Set<String> held) {
        assertEquals(held, hold.held(D, observed, T0.plusSeconds(secondsLater)), name);
    }

    @Test
    void aHoldLastsItsWholeTimeUnlessReleased() {
        StartHold hold = StartHold.from(T0);
        assertTrue(hold.holding(T0));
        assertTrue(hold.holding(T0.plus(StartHold.HOLD).minusMillis(1)));
        assertFalse(hold.holding(T0.plus(StartHold.HOLD)));
        assertFalse(hold.release().holding(T0));
        assertEquals(Duration.ofSeconds(15), StartHold.HOLD, "within the 30 s a node restarted with the seat down has");
        assertEquals(Set.of(), hold.held(null, List.of(), T0), "no declaration: nothing to hold");
    }
}
