package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ConvergenceWaitTest: {@code push --wait} asks quickly while a push usually converges, then once a second. */
class ConvergenceWaitTest {

    @ParameterizedTest
    @CsvSource({"0, 250", "1000, 250", "4999, 250", "5000, 1000", "60000, 1000"})
    void thePollIsQuickForTheFirstSecondsThenOnceASecond(long waitedMillis, long intervalMillis) {
        assertEquals(Duration.ofMillis(intervalMillis), ConvergenceWait.poll(Duration.ofMillis(waitedMillis)));
    }
}
