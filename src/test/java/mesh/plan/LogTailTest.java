package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LogTailTest {

    private static final String MARK = "--- start";

    @Test
    void theLastLinesAfterTheLastMark() {
        List<String> log = List.of("--- start 1", "old a", "old b", "--- start 2", "new a", "new b", "new c");
        assertEquals(List.of("new b", "new c"), LogTail.sinceLast(log, MARK, 2));
        assertEquals(List.of("new a", "new b", "new c"), LogTail.sinceLast(log, MARK, 20));
    }

    @Test
    void withoutAMarkTheLastLinesOfAll() {
        assertEquals(List.of("b", "c"), LogTail.sinceLast(List.of("a", "b", "c"), MARK, 2));
    }

    @Test
    void aStartThatWroteNothingHasNoTailAndBlankEndsAreLeftOut() {
        assertEquals(List.of(), LogTail.sinceLast(List.of("--- start 1", "old", "--- start 2", "", " "), MARK, 20));
        assertEquals(List.of("x"), LogTail.sinceLast(List.of("--- start 1", "x", ""), MARK, 20));
        assertEquals(List.of(), LogTail.sinceLast(List.of(), MARK, 20));
    }
}
