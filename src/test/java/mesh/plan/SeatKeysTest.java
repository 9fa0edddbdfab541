package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeatKeysTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            // extra file and its size (none: only the four needed keys, 32 bytes each) | problems expected
            "none|",
            "install/recovery.key:40|",
            "../etc/passwd:10|../etc/passwd is not one of the seat's keys",
            "tls/agent.key:10|tls/agent.key is not one of the seat's keys",
            "install/store-password:0|install/store-password is empty",
            "install/secrets.key:70000|install/secrets.key is empty or larger than 65536 bytes",
            "-tls/ca.key|tls/ca.key is missing",
    })
    void aStandbyWritesTheSeatsKeysAndNothingElse(String change, String problem) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        SeatKeys.NEEDED.forEach(n -> sizes.put(n, 32));
        if (change.startsWith("-")) {
            sizes.remove(change.substring(1));
        } else if (!change.equals("none")) {
            String[] p = change.split(":");
            sizes.put(p[0], Integer.parseInt(p[1]));
        }
        List<String> problems = SeatKeys.problems(sizes);
        if (problem == null) {
            assertEquals(List.of(), problems);
        } else {
            assertEquals(1, problems.size(), problems.toString());
            assertEquals(true, problems.get(0).startsWith(problem), problems.get(0));
        }
    }
}
