package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FollowEndTest {

    static final String OLD = "3f1c0ad2b9e84d7c0011223344556677";
    static final String NEW = "9a8b7c6d5e4f3a2b0011223344556677";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "the copy runs: go on                      | " + OLD + " | true  | 0  | -",
        "another copy: replaced, at once           | " + NEW + " | true  | 0  | component web was replaced (3f1c0ad2b9e8 is now 9a8b7c6d5e4f)",
        "stopped a moment: a replace may come      | " + OLD + " | false | 3  | -",
        "stopped past the grace                    | " + OLD + " | false | 10 | component web stopped (3f1c0ad2b9e8)",
        "gone a moment: a replace removes first    | -           | false | 3  | -",
        "gone past the grace: removed              | -           | false | 10 | component web was removed",
    })
    void theFollowEndsWhenItsCopyIsNoLongerTheComponents(String scenario, String current, boolean running, long downSeconds,
                                                       String why) {
        assertEquals(Optional.ofNullable(why), FollowEnd.why("web", OLD, Optional.ofNullable(current), running,
                Duration.ofSeconds(downSeconds)), scenario);
    }

    @ParameterizedTest(name = "process {0}")
    @CsvSource({"process:42, true, ''", "process:43, true, component web was replaced (process:42 is now process:43)"})
    void aProcessCopyIsItsPid(String current, boolean running, String why) {
        assertEquals(why.isEmpty() ? Optional.empty() : Optional.of(why),
                FollowEnd.why("web", "process:42", Optional.of(current), running, Duration.ZERO));
    }
}
