package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JoinRerunTest is when {@code mesh install --join URL} without a token brings a joined node back, and when it is refused. */
class JoinRerunTest {

    static final String URL = "https://10.77.0.11:7700";
    static final String HASH = "sha256:" + "ab".repeat(32);
    static final String OTHER_HASH = "sha256:" + "cd".repeat(32);
    static final Set<InstallStep> JOINED = EnumSet.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.JOIN);
    static final JoinRerun.Held HELD = new JoinRerun.Held(JOINED, "g14", "10.77.0.12", HASH);

    static JoinRerun.Verdict decide(String token, String node, String address, String caHash, JoinRerun.Held held) {
        return JoinRerun.decide(URL, token, node, address, caHash, held, "/var/lib/mesh");
    }

    @Test
    void aJoinedNodeRerunWithTheUrlAloneTakesItsNameAndAddressFromItsCertificate() {
        JoinRerun.Verdict v = decide(null, null, null, null, HELD);
        assertEquals(new JoinRerun.Verdict(true, "g14", "10.77.0.12", null), v);
        assertEquals(java.util.List.of(), new InstallInputs(v.node(), v.address(), null, null, "unix:///var/run/docker.sock",
                URL, null, null, v.rerun()).problems(), "a rerun needs no token and no CA hash");
    }

    @Test
    void theSameNodeAddressAndCaHashGivenAgainAreARerunToo() {
        assertEquals(new JoinRerun.Verdict(true, "g14", "10.77.0.12", null), decide(null, "g14", "10.77.0.12", HASH, HELD));
    }

    @Test
    void anotherNodeAddressOrCaIsRefusedNamingWhatThisMachineJoinedAs() {
        String node = decide(null, "ace", null, null, HELD).refusal();
        assertTrue(node.startsWith("--node ace: this machine joined the mesh as node g14") && node.contains("/var/lib/mesh/tls"), node);
        String address = decide(null, null, "10.77.0.99", null, HELD).refusal();
        assertTrue(address.startsWith("--address 10.77.0.99: node g14 joined with address 10.77.0.12"), address);
        String ca = decide(null, null, null, OTHER_HASH, HELD).refusal();
        assertTrue(ca.startsWith("--ca-hash " + OTHER_HASH + ": node g14 joined a mesh whose CA is " + HASH), ca);
    }

    @Test
    void aNodeThatNeverFinishedAJoinStillNeedsTheToken() {
        for (JoinRerun.Held held : java.util.List.of(
                new JoinRerun.Held(Set.of(), null, null, null),                                  // an empty state dir
                new JoinRerun.Held(EnumSet.of(InstallStep.PREFLIGHT, InstallStep.AGENT), "g14", "10.77.0.12", HASH), // join step not done
                new JoinRerun.Held(JOINED, null, null, HASH),                                     // no certificate
                new JoinRerun.Held(EnumSet.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.STORE), "novox", "10.77.0.11", HASH))) { // a seat
            JoinRerun.Verdict v = decide(null, null, null, null, held);
            assertFalse(v.rerun(), held.toString());
            assertNull(v.refusal(), held.toString());
            String problem = new InstallInputs("g14", "10.77.0.12", null, null, "unix:///var/run/docker.sock", URL, null, HASH,
                    v.rerun()).problems().get(0);
            assertEquals("--join needs --token and --node, as 'mesh node add' printed them", problem);
        }
    }

    @Test
    void aTokenGivenIsAJoinAsBeforeAndNoJoinIsNoRerun() {
        assertEquals(new JoinRerun.Verdict(false, "g14", null, null), decide("t0k3n", "g14", null, HASH, HELD));
        assertEquals(new JoinRerun.Verdict(false, null, null, null),
                JoinRerun.decide(null, null, null, null, null, HELD, "/var/lib/mesh"));
    }
}
