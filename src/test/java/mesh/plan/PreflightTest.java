package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PreflightTest {

    private static Preflight.Facts facts(String api, String engineError, List<Integer> busy, String dirError, String address) {
        return new Preflight.Facts("unix:///var/run/docker.sock", api, engineError, busy, "/var/lib/mesh", dirError, address,
                List.of("127.0.0.1", "10.77.0.11"));
    }

    @Test
    void aReadyMachineHasNoProblem() {
        assertEquals(List.of(), Preflight.problems(facts("1.41", null, List.of(), null, "10.77.0.11")));
    }

    @Test
    void everyProblemIsNamed() {
        List<String> problems = Preflight.problems(facts(null, "connection refused", List.of(7700, 5432), "read-only file system",
                "10.77.0.99"));
        assertEquals(List.of(
                "the Docker engine at unix:///var/run/docker.sock does not answer: connection refused (start it, or name another with --engine)",
                "address 10.77.0.99 is not an address of this machine (it has 127.0.0.1, 10.77.0.11)",
                "port 7700 on 10.77.0.99 is in use: mesh needs it free",
                "port 5432 on 10.77.0.99 is in use: mesh needs it free",
                "the state dir /var/lib/mesh is not writable: read-only file system"), problems);
    }

    @Test
    void anOldEngineAndABadAddressAreRefused() {
        assertEquals(List.of("the Docker engine at unix:///var/run/docker.sock speaks API 1.40; mesh needs 1.41 or newer",
                        "address: an IPv4 address of this machine (--address), got 'ace'"),
                Preflight.problems(facts("1.40", null, List.of(), null, "ace")));
    }

    @Test
    void apiVersionsCompareAsNumbers() {
        assertTrue(Preflight.atLeast("1.41", 1, 41));
        assertTrue(Preflight.atLeast("1.100", 1, 41));
        assertTrue(Preflight.atLeast("2.0", 1, 41));
        assertFalse(Preflight.atLeast("1.9", 1, 41));
        assertFalse(Preflight.atLeast("x", 1, 41));
    }
}
