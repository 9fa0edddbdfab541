package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void aStampedLineIsSplitIntoItsTimeAndItsText() {
        assertEquals(new LogText.Stamped("2026-12-01T10:00:00.123456789Z", "hello world"),
                LogText.split("2026-12-01T10:00:00.123456789Z hello world"));
        assertEquals(new LogText.Stamped("2026-12-01T10:00:00.123456789Z", ""),
                LogText.split("2026-12-01T10:00:00.123456789Z "));
    }

    @Test
    void aLineWithoutATimeIsAllText() {
        assertEquals(new LogText.Stamped(null, "hello world"), LogText.split("hello world"));
        assertEquals(new LogText.Stamped(null, ""), LogText.split(""));
        assertEquals(new LogText.Stamped(null, "2026 was a year"), LogText.split("2026 was a year"));
    }

    @Test
    void lineEndsAreDropped() {
        assertEquals("a", LogText.chomp("a\n"));
        assertEquals("a", LogText.chomp("a\r\n"));
        assertEquals("a", LogText.chomp("a"));
    }
}
