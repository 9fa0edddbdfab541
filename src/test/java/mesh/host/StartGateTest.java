package mesh.host;

import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.plan.StartHold;
import org.junit.jupiter.api.Test;

class StartGateTest {

    static final ComponentSpec LEDGER = component("ledger.server").module("ledger").volume("data", "/data").build();
    static final Declaration D = declaration("n2", 3, LEDGER);

    /** A clock the test moves. */
    static final class Moving extends Clock {
        Instant now = Instant.parse("2026-12-05T10:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void heldFromTheStartUntilADeclarationOrTheHoldsEnd() {
        Moving clock = new Moving();
        List<Duration> wakes = new ArrayList<>();
        List<String> said = new ArrayList<>();
        StartGate gate = new StartGate(clock, wakes::add, said::add);
        assertEquals(Set.of(), gate.held(D, List.of()), "nothing held before the agent starts");
        gate.arm(true, "the agent starts");
        assertEquals(List.of(StartHold.HOLD.plusMillis(100)), wakes, "a pass when the hold runs out");
        assertEquals(Set.of("ledger"), gate.held(D, List.of()));
        clock.now = clock.now.plus(StartHold.HOLD);
        assertEquals(Set.of(), gate.held(D, List.of()), "the seat did not answer: the node runs its own declaration");

        gate.arm(true, "the agent starts");
        gate.heard();
        assertEquals(Set.of(), gate.held(D, List.of()), "a declaration accepted lets go at once");
        assertEquals(List.of("holding back ledger", "no longer holding back ledger"), said.stream()
                .filter(l -> l.contains("ledger")).map(l -> l.replaceAll(" until.*", "")).toList(), "once when it begins, once when it ends");
    }

    @Test
    void theEnginesReturnArmsItAgainUnlessTheControllerSpokeMeanwhile() {
        Moving clock = new Moving();
        StartGate gate = new StartGate(clock, d -> { }, l -> { });
        gate.arm(false, "the agent starts");
        gate.heard();
        gate.engineFailed();
        gate.engineFailed();
        assertEquals(Set.of("ledger"), gate.held(D, List.of()),
                "the first look at the engine after it failed arms the hold before it answers: held again");
        gate.heard();
        gate.engineFailed();
        gate.heard();
        assertEquals(Set.of(), gate.held(D, List.of()), "a declaration came while the engine was away: nothing held");
        assertEquals(Set.of(), gate.held(D, List.of()), "an engine that did not fail again arms nothing");
    }
}
