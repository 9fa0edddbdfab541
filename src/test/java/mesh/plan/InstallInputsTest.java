package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** InstallInputsTest is the table of bad {@code mesh install} inputs: each refused naming its flag and the value. */
class InstallInputsTest {

    static final String HASH = "sha256:" + "ab".repeat(32);

    static InstallInputs good() {
        return new InstallInputs("novox", "10.77.0.11", "zurag.test", "jdbc:postgresql://10.77.0.5:5432/mesh?user=m&password=p",
                "unix:///var/run/docker.sock", null, null, null);
    }

    /** Case is one bad input, the flag and the value its problem must name. */
    record Case(String name, InstallInputs inputs, String flag, String value) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> badInputs() {
        InstallInputs g = good();
        return Stream.of(
                new Case("a node name with capitals and '_'", new InstallInputs("Bad_Node", g.address(), g.publicDomain(),
                        g.storeUrl(), g.engine(), null, null, null), "--node", "Bad_Node"),
                new Case("a loopback address", new InstallInputs(g.node(), "127.0.0.1", g.publicDomain(), g.storeUrl(),
                        g.engine(), null, null, null), "--address", "127.0.0.1"),
                new Case("a store URL that is not JDBC", new InstallInputs(g.node(), g.address(), g.publicDomain(),
                        "postgres://mesh:mesh@10.77.0.5/mesh", g.engine(), null, null, null), "--store-url", "postgres://mesh:mesh@10.77.0.5/mesh"),
                new Case("a JDBC URL with no database", new InstallInputs(g.node(), g.address(), g.publicDomain(),
                        "jdbc:postgresql://10.77.0.5:5432", g.engine(), null, null, null), "--store-url", "jdbc:postgresql://10.77.0.5:5432"),
                new Case("a join that is not a URL", new InstallInputs(g.node(), g.address(), null, null, g.engine(),
                        "https//10.0.0.11:7700", "t0k3n", HASH), "--join", "https//10.0.0.11:7700"),
                new Case("an https join without --ca-hash", new InstallInputs(g.node(), g.address(), null, null, g.engine(),
                        "https://10.0.0.11:7700", "t0k3n", null), "--ca-hash", "https://10.0.0.11:7700"),
                new Case("a join without a token", new InstallInputs(g.node(), g.address(), null, null, g.engine(),
                        "https://10.0.0.11:7700", null, HASH), "--token", "--join"),
                new Case("a public domain in capitals", new InstallInputs(g.node(), g.address(), "Zurag.BE", g.storeUrl(),
                        g.engine(), null, null, null), "--public-domain", "Zurag.BE"),
                new Case("an engine given as a bare path", new InstallInputs(g.node(), g.address(), g.publicDomain(),
                        g.storeUrl(), "docker.sock", null, null, null), "--engine", "docker.sock"),
                new Case("an engine over tcp without a port", new InstallInputs(g.node(), g.address(), g.publicDomain(),
                        g.storeUrl(), "tcp://10.77.0.5", null, null, null), "--engine", "tcp://10.77.0.5"),
                new Case("module networks that are no CIDR", networks("10.213.0.0"), "--module-networks", "'10.213.0.0'"),
                new Case("module networks that are no address", networks("ten/16"), "--module-networks", "'ten/16'"),
                new Case("module networks with host bits set", networks("10.213.4.0/16"), "--module-networks", "10.213.0.0/16?"),
                new Case("module networks smaller than one module network", networks("10.213.0.0/27"), "--module-networks",
                        "smaller than one module network"),
                new Case("module networks overlapping the node's address", networks("10.77.0.0/16"), "--module-networks 10.77.0.0/16",
                        "overlaps this node's address 10.77.0.11/24 on eth0"),
                new Case("module networks inside a route of the node", networks("192.168.64.0/26"),
                        "--module-networks 192.168.64.0/26", "overlaps this node's route to 192.168.0.0/16 on wg0"));
    }

    /** The machine's own networks in these cases: its mesh address, a VPN's route, the default route, Docker's bridge. */
    static final List<NetworkRange.HostNet> HOST = List.of(NetworkRange.HostNet.address("eth0", "10.77.0.11", 24),
            NetworkRange.HostNet.route("wg0", mesh.model.Cidr.parse("192.168.0.0/16", "x")),
            NetworkRange.HostNet.route("eth0", mesh.model.Cidr.parse("0.0.0.0/0", "x")),
            NetworkRange.HostNet.address("docker0", "172.17.0.1", 16));

    /** The good inputs with {@code --module-networks RANGE} on a machine with {@link #HOST}'s networks. */
    static InstallInputs networks(String range) {
        InstallInputs g = good();
        return new InstallInputs(g.node(), g.address(), g.publicDomain(), g.storeUrl(), g.engine(), null, null, null, range, HOST);
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void eachBadInputIsNamedByItsFlag(Case c) {
        List<String> problems = c.inputs().problems();
        assertEquals(1, problems.size(), problems.toString());
        String problem = problems.get(0);
        assertTrue(problem.contains(c.flag()) && problem.contains(c.value()), problem);
        assertFalse(problem.contains("Exception") || problem.contains("java."), problem);
    }

    @Test
    void goodInputsHaveNoProblem() {
        assertEquals(List.of(), good().problems());
        assertEquals(List.of(), new InstallInputs("g14", "10.77.0.12", null, null, "tcp://10.77.0.12:2375",
                "https://10.77.0.11:7700", "t0k3n", HASH).problems());
        assertEquals(List.of(), new InstallInputs("g14", null, null, null, "unix:///run/docker.sock",
                "http://10.77.0.11:7700", "t0k3n", null).problems());
        assertEquals(List.of(), networks("10.213.0.0/16").problems(), "the default range, clear of the machine's networks");
        assertEquals(List.of(), networks("172.17.0.0/16").problems(), "Docker's own bridge may share the range");
        assertEquals(List.of(), new InstallInputs("g14", "10.77.0.12", null, null, "unix:///run/docker.sock",
                "http://10.77.0.11:7700", "t0k3n", null, "10.99.0.0/20", HOST).problems(), "a joining node's range");
    }
}
