package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** AuditSinceTest: what {@code mesh audit --since} takes (a duration back, an instant, a day) and how it refuses the rest. */
class AuditSinceTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @ParameterizedTest
    @CsvSource({
        "90s, 2026-11-30T11:58:30Z",
        "30m, 2026-11-30T11:30:00Z",
        "12h, 2026-11-30T00:00:00Z",
        "7d, 2026-11-23T12:00:00Z",
        "2026-11-29T08:15:00Z, 2026-11-29T08:15:00Z",
        "2026-11-29, 2026-11-29T00:00:00Z"})
    void aDurationAnInstantOrADayIsTaken(String given, String expected) {
        assertEquals(Instant.parse(expected), Times.since(given, NOW));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", "5w", "-3h", "2026-13-01", "3 h"})
    void anythingElseIsRefusedSayingWhatIsTaken(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Times.since(bad, NOW));
        assertTrue(e.getMessage().startsWith("--since: a duration back from now"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
}
