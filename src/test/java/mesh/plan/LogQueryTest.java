package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LogQueryTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @ParameterizedTest(name = "--since {0} is {1}")
    @CsvSource({
        "90s, 2026-12-01T09:58:30Z",
        "5m, 2026-12-01T09:55:00Z",
        "2h, 2026-12-01T08:00:00Z",
        "1d, 2026-11-30T10:00:00Z",
        "1h30m, 2026-12-01T08:30:00Z",
        "2026-12-01T09:00:00Z, 2026-12-01T09:00:00Z",
        "2026-12-01T10:00:00+01:00, 2026-12-01T09:00:00Z",
    })
    void sinceIsADurationBackOrAnInstant(String given, String expected) {
        assertEquals(Instant.parse(expected), LogQuery.since(given, NOW));
    }

    @ParameterizedTest(name = "--since {0} is refused")
    @ValueSource(strings = {"5x", "m5", "yesterday", "2026-12-01", "-5m", "99999999999999999999d"})
    void aBadSinceIsRefusedSayingTheForms(String given) {
        InvalidInput e = assertThrows(InvalidInput.class, () -> LogQuery.since(given, NOW));
        assertTrue(e.getMessage().contains("'" + given + "'") && e.getMessage().contains("90s"), e.getMessage());
    }

    @Test
    void noSinceAndNoTailAreAll() {
        assertNull(LogQuery.since(null, NOW));
        assertNull(LogQuery.since(" ", NOW));
        assertNull(LogQuery.tail(null));
        assertEquals("", new LogQuery(null, null, false).query());
    }

    @Test
    void tailIsBoundedSoAProcessTailFitsInMemory() {
        assertEquals(0, new LogQuery(null, 0, false).tail());
        assertEquals(LogQuery.MOST_TAIL, new LogQuery(null, LogQuery.MOST_TAIL, false).tail());
        assertThrows(InvalidInput.class, () -> new LogQuery(null, LogQuery.MOST_TAIL + 1, false));
        assertThrows(InvalidInput.class, () -> new LogQuery(null, -1, false));
        assertThrows(InvalidInput.class, () -> LogQuery.tail("ten"));
    }

    @Test
    void theQueryCarriesSinceAsAnInstantSoTheServerReadsItBack() {
        LogQuery q = new LogQuery(LogQuery.since("5m", NOW), 20, true);
        assertEquals("since=2026-12-01T09:55:00Z&tail=20&follow=true", q.query());
        assertEquals(q, LogQuery.of("2026-12-01T09:55:00Z", "20", "true", Instant.EPOCH));
        assertEquals("tail=3", new LogQuery(null, 3, false).query());
    }
}
