package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.stream.Stream;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StatusWaitTest {

    /** A client that pushed generation 5 and waits for it. */
    static final StatusWait FIVE = new StatusWait(5, Duration.ofSeconds(30));

    static StatusWait.Seen seen(long desired, long applied, boolean converged, long passes, long lastPassGeneration) {
        return new StatusWait.Seen(desired, applied, converged, passes, lastPassGeneration);
    }

    static Stream<Arguments> cases() {
        StatusWait.Seen asked = seen(5, 4, true, 10, 4);   // 5 accepted, 4 applied, a pass over 4 ended last
        return Stream.of(
                Arguments.of("5 applied and converged: at once", asked, seen(5, 5, true, 10, 4), true),
                Arguments.of("a newer generation applied: at once", asked, seen(6, 6, true, 12, 6), true),
                Arguments.of("nothing changed yet: wait", asked, asked, false),
                Arguments.of("5 applied once but not converged now, no pass ended since: wait", asked,
                        seen(5, 5, false, 10, 5), false),
                Arguments.of("a pass over 5 ended without converging: answer (the client asks again)", asked,
                        seen(5, 4, false, 11, 5), true),
                Arguments.of("a pass ended, but over 4 (it began before the push): wait", asked,
                        seen(5, 4, false, 11, 4), false),
                Arguments.of("5 not accepted here (refused, or not pushed yet): at once", seen(4, 4, true, 10, 4),
                        seen(4, 4, true, 10, 4), true),
                Arguments.of("a pass over 5 had ended before the question: wait for the next", seen(5, 4, false, 11, 5),
                        seen(5, 4, false, 11, 5), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersWhenThereIsNews(String name, StatusWait.Seen asked, StatusWait.Seen now, boolean answer) {
        assertEquals(answer, FIVE.answerNow(asked, now), name);
    }

    @Test
    void readsTheQuestion() {
        assertEquals(new StatusWait(7, Duration.ofSeconds(30)), StatusWait.parse("7", "30s"));
        assertEquals(new StatusWait(7, Duration.ofMillis(500)), StatusWait.parse("7", "500ms"));
        assertEquals(new StatusWait(7, Duration.ZERO), StatusWait.parse("7", null));
        assertEquals(StatusWait.LONGEST, StatusWait.parse("7", "60").upTo());
    }

    @Test
    void refusesWhatItCannotWaitFor() {
        assertTrue(assertThrows(InvalidInput.class, () -> StatusWait.parse("x", "1s")).getMessage()
                .contains("generation must be a number, got 'x'"));
        assertTrue(assertThrows(InvalidInput.class, () -> StatusWait.parse("7", "61s")).getMessage()
                .contains("wait must be from 0s to 60s, got '61s'"));
        assertTrue(assertThrows(InvalidInput.class, () -> StatusWait.parse("7", "soon")).getMessage()
                .contains("wait: 'soon' is not a duration"));
    }
}
