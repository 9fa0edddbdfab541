package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** NodeInputTest is the table of bad node names, addresses, agent URLs and public domains. */
class NodeInputTest {

    static final List<String> FORBIDDEN = List.of("java.", "Exception", "Coercion", "jackson", "Jackson", "quarkus",
            "mesh.model", "$");

    /** Case is one bad node and the problem it must be refused with. */
    record Case(String name, String node, String address, String agent, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case node(String name, String node, String expected) {
        return new Case(name, node, "10.77.0.13", null, expected);
    }

    static Case address(String name, String address, String expected) {
        return new Case(name, "shanks", address, null, expected);
    }

    static Case agent(String name, String agent, String expected) {
        return new Case(name, "shanks", "10.77.0.13", agent, expected);
    }

    static Stream<Case> cases() {
        String long64 = "a".repeat(64);
        return Stream.of(
                node("upper case and '!'", "Ace!", "node name: lower-case letters, digits and '-' (a DNS label: 1-63 characters, not starting or ending with '-'), got 'Ace!'"),
                node("an underscore", "my_node", "node name: lower-case letters, digits and '-'"),
                node("a trailing hyphen", "node-", "got 'node-'"),
                node("a leading hyphen", "-node", "got '-node'"),
                node("a dot", "node.one", "got 'node.one'"),
                node("a trailing dot", "node.", "got 'node.'"),
                node("64 characters", long64, "got '" + long64 + "'"),
                node("empty", "", "got ''"),
                node("none", null, "got nothing"),
                address("not an address", "10.0.0.300", "address: an IPv4 address on the mesh, got '10.0.0.300'"),
                address("no address", null, "address: an IPv4 address on the mesh, got nothing"),
                address("a host name", "node1.lan", "address: an IPv4 address on the mesh, got 'node1.lan'"),
                address("an IPv6 address", "fd00::1", "address: an IPv4 address on the mesh, got 'fd00::1'"),
                address("leading zeros", "10.077.0.1", "got '10.077.0.1'"),
                address("loopback", "127.0.0.1", "address: 127.0.0.1 is a loopback address: inside a container it is the container itself, not the node; give the node's address on the mesh network"),
                address("loopback elsewhere in 127/8", "127.1.2.3", "address: 127.1.2.3 is a loopback address"),
                address("unspecified", "0.0.0.0", "address: 0.0.0.0 is the unspecified address"),
                address("this network", "0.1.2.3", "address: 0.1.2.3 is in 0.0.0.0/8"),
                address("link-local", "169.254.10.1", "address: 169.254.10.1 is a link-local address"),
                address("cloud metadata", "169.254.169.254", "address: 169.254.169.254 is a link-local address"),
                address("multicast", "224.0.0.1", "address: 224.0.0.1 is a multicast address"),
                address("multicast, top of range", "239.255.255.250", "address: 239.255.255.250 is a multicast address"),
                address("broadcast", "255.255.255.255", "address: 255.255.255.255 is the broadcast address"),
                address("reserved", "240.0.0.1", "address: 240.0.0.1 is a reserved address"),
                agent("ftp", "ftp://x", "agent: an http(s) URL (like http://10.0.0.2:7701), got 'ftp://x'"),
                agent("no scheme", "10.77.0.13:7701", "agent: an http(s) URL"),
                agent("port 99999", "http://10.77.0.13:99999", "agent: the port must be 1-65535, got 99999 in 'http://10.77.0.13:99999'"),
                agent("port 0", "http://10.77.0.13:0", "agent: the port must be 1-65535, got 0"),
                agent("a host with an underscore", "http://my_host:7701", "agent: an http(s) URL with a valid host name or address"),
                agent("no host", "http://:7701", "agent: an http(s) URL with a valid host name or address"),
                agent("a space", "http://a b:7701", "agent: not a URL: 'http://a b:7701'"),
                agent("credentials", "http://user:pw@10.77.0.13:7701", "agent: just scheme, host, port and path"),
                agent("a query", "http://10.77.0.13:7701/?token=x", "agent: just scheme, host, port and path"),
                agent("a fragment", "http://10.77.0.13:7701/#x", "agent: just scheme, host, port and path"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyBadNodeIsRefusedByName(Case c) {
        List<String> problems = NodeInput.problems(c.node(), c.address(), c.agent());
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertTrue(problems.stream().anyMatch(p -> p.contains(c.expected())),
                "expected a problem containing\n  " + c.expected() + "\ngot\n  " + String.join("\n  ", problems)));
        checks.add(() -> assertEquals(1, problems.size(), "one problem per case: " + problems));
        for (String p : problems) {
            for (String word : FORBIDDEN) {
                checks.add(() -> assertFalse(p.contains(word), "says '" + word + "': " + p));
            }
        }
        assertAll(c.name(), checks);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.77.0.11", "192.168.1.20", "172.17.0.1", "100.64.0.7", "8.8.4.4", "1.2.3.4"})
    void aUnicastAddressIsANodeAddress(String address) {
        assertEquals(List.of(), NodeInput.problems("novox", address, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.77.0.11:7701", "https://agent.novox.be", "http://127.0.0.1:7701",
            "https://[fd00::1]:7701", "http://node-1.lan:8080/mesh"})
    void anHttpUrlWithHostAndPortIsAnAgent(String agent) {
        assertEquals(List.of(), NodeInput.problems("novox", "10.77.0.11", agent));
    }

    @ParameterizedTest
    @ValueSource(strings = {"novox.be", "a.b.example.org", "xn--bcher-kva.example"})
    void aDomainWithinDnsLimitsIsAPublicDomain(String domain) {
        assertNull(NodeInput.domainProblem(domain));
    }

    static Stream<String> badDomains() {
        String label63 = "a".repeat(63);
        return Stream.of("not a domain", "novox", "novox.be.", "Novox.be", "-novox.be", "novox-.be", "my_host.be",
                "a".repeat(64) + ".be", String.join(".", label63, label63, label63, label63) + ".be", "", null);
    }

    @ParameterizedTest
    @MethodSource("badDomains")
    void aDomainBeyondDnsIsRefused(String domain) {
        String problem = NodeInput.domainProblem(domain);
        assertFalse(NodeInput.isDomain(domain), domain);
        assertTrue(problem != null && FORBIDDEN.stream().noneMatch(problem::contains), problem);
    }

    @org.junit.jupiter.api.Test
    void aDomainOverTheDnsLengthSaysSo() {
        String label63 = "a".repeat(63);
        String domain = String.join(".", label63, label63, label63, label63) + ".be";
        assertEquals("a domain name has at most 253 characters, got " + domain.length(), NodeInput.domainProblem(domain));
    }
}
