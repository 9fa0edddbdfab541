package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.Cidr;
import mesh.model.InvalidInput;
import mesh.plan.NetworkRange.HostNet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** NetworkRangeTest: which /26 a new module network gets, and which ranges a node refuses. */
class NetworkRangeTest {

    static Cidr net(String text) {
        return Cidr.parse(text, "test");
    }

    static List<Cidr> nets(String... texts) {
        return Arrays.stream(texts).map(NetworkRangeTest::net).toList();
    }

    static Stream<Arguments> picks() {
        return Stream.of(
                Arguments.of("an empty engine: the range's first slot", "10.213.0.0/16", List.of(), "10.213.0.0/26"),
                Arguments.of("the lowest free slot, not the next after the highest", "10.213.0.0/16",
                        nets("10.213.0.0/26", "10.213.0.128/26"), "10.213.0.64/26"),
                Arguments.of("Docker's pools elsewhere are no obstacle", "10.213.0.0/16",
                        nets("172.17.0.0/16", "172.18.0.0/16", "192.168.0.0/20"), "10.213.0.0/26"),
                Arguments.of("a larger network inside the range takes every slot it covers", "10.213.0.0/16",
                        nets("10.213.0.0/24"), "10.213.1.0/26"),
                Arguments.of("a smaller one takes the slot it falls in", "10.213.0.0/16",
                        nets("10.213.0.8/29"), "10.213.0.64/26"),
                Arguments.of("a network holding the whole range leaves nothing below, so the first free is past it",
                        "10.213.0.0/25", nets("10.213.0.0/26"), "10.213.0.64/26"),
                Arguments.of("an operator's range", "192.168.100.0/24", nets("192.168.100.0/26"), "192.168.100.64/26"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("picks")
    void aNewNetworkGetsTheLowestSlotThatOverlapsNothingTaken(String why, String range, List<Cidr> taken, String expected) {
        assertEquals(net(expected), NetworkRange.pick(net(range), "m8", "m8", taken));
    }

    @Test
    void theSameStateGivesTheSameSlotAndAFreedSlotIsTakenAgain() {
        Cidr range = NetworkRange.DEFAULT;
        List<Cidr> taken = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            taken.add(NetworkRange.pick(range, "m" + i, "m" + i, taken));
        }
        assertEquals(120, taken.stream().distinct().count());
        Cidr freed = taken.remove(59);
        assertEquals(freed, NetworkRange.pick(range, "m59", "m59", taken), "a module added again fills the hole it left");
        assertEquals(NetworkRange.pick(range, "x", "x", taken), NetworkRange.pick(range, "x", "x", taken));
    }

    @Test
    void aFullRangeIsRefusedNamingTheRangeTheNetworkAndTheModule() {
        Cidr range = net("10.213.0.0/25");
        var full = assertThrows(NetworkRange.Exhausted.class,
                () -> NetworkRange.pick(range, "m8", "m8", nets("10.213.0.0/26", "10.213.0.64/26")));
        assertEquals("no free /26 left in MESH_HOST_NETWORKS 10.213.0.0/25 for network m8 of module m8: all 2 overlap"
                + " the engine's networks or this node's addresses and routes; give the node a larger MESH_HOST_NETWORKS"
                + " or place fewer modules on it", full.getMessage());
    }

    @Test
    void theDefaultHoldsOverAThousandModules() {
        assertEquals(1024, NetworkRange.slots(NetworkRange.DEFAULT));
    }

    @Test
    void theNodesRoutesAreTakenButItsDefaultRouteIsNot() {
        List<HostNet> host = List.of(HostNet.route("eth0", net("0.0.0.0/0")), HostNet.route("wg0", net("10.213.0.0/24")),
                HostNet.address("eth0", "10.77.0.32", 24));
        List<Cidr> taken = NetworkRange.taken(nets("172.17.0.0/16"), host);
        assertEquals(nets("172.17.0.0/16", "10.213.0.0/24", "10.77.0.0/24"), taken);
        assertEquals(net("10.213.1.0/26"), NetworkRange.pick(NetworkRange.DEFAULT, "m1", "m1", taken));
    }

    static Stream<Arguments> hosts() {
        return Stream.of(
                Arguments.of("a node far from the range", List.of(HostNet.address("eth0", "10.77.0.32", 24),
                        HostNet.route("eth0", net("10.77.0.0/24")), HostNet.address("lo", "127.0.0.1", 8)), List.of()),
                Arguments.of("the default route covers everything and is ignored, as Docker does",
                        List.of(HostNet.route("eth0", net("0.0.0.0/0"))), List.of()),
                Arguments.of("Docker's own bridges are the engine's networks, not the node's",
                        List.of(HostNet.address("br-0123456789ab", "10.213.0.1", 26), HostNet.route("docker0", net("10.213.4.0/24"))),
                        List.of()),
                Arguments.of("an address inside the range", List.of(HostNet.address("eth1", "10.213.4.7", 24)),
                        List.of("MESH_HOST_NETWORKS 10.213.0.0/16 overlaps this node's address 10.213.4.7/24 on eth1: choose"
                                + " a range the node does not use (the module networks would hide it)")),
                Arguments.of("a subnet holding the range", List.of(HostNet.address("eth1", "10.1.2.3", 8)),
                        List.of("MESH_HOST_NETWORKS 10.213.0.0/16 overlaps this node's address 10.1.2.3/8 on eth1: choose"
                                + " a range the node does not use (the module networks would hide it)")),
                Arguments.of("a route into the range (a VPN's)", List.of(HostNet.route("wg0", net("10.213.128.0/17"))),
                        List.of("MESH_HOST_NETWORKS 10.213.0.0/16 overlaps this node's route to 10.213.128.0/17 on wg0: choose"
                                + " a range the node does not use (the module networks would hide it)")),
                Arguments.of("a bridge not Docker's is the node's", List.of(HostNet.address("br-lan", "10.213.0.1", 24)),
                        List.of("MESH_HOST_NETWORKS 10.213.0.0/16 overlaps this node's address 10.213.0.1/24 on br-lan: choose"
                                + " a range the node does not use (the module networks would hide it)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void aRangeOverlappingTheNodesOwnAddressesOrRoutesIsRefused(String why, List<HostNet> host, List<String> problems) {
        assertEquals(problems, NetworkRange.hostConflicts(NetworkRange.DEFAULT, host));
    }

    @ParameterizedTest(name = "''{0}'' is {1}")
    @CsvSource(delimiter = '|', value = {
        "|10.213.0.0/16",
        "'  '|10.213.0.0/16",
        "192.168.64.0/18|192.168.64.0/18",
        "10.5.0.0/26|10.5.0.0/26"})
    void theSettingReads(String text, String expected) {
        assertEquals(net(expected), NetworkRange.parse(text));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        "10.213.0.0|MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16, got '10.213.0.0'",
        "10.213.0.0/x|MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16, got '10.213.0.0/x'",
        "10.213.300.0/16|MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16, got '10.213.300.0/16'",
        "fd00::/64|MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16, got 'fd00::/64'",
        "10.213.0.0/33|MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16: the prefix length 33 is not 0 to 32",
        "10.213.4.0/16|MESH_HOST_NETWORKS 10.213.4.0/16 has host bits set: did you mean 10.213.0.0/16?",
        "10.213.0.0/27|MESH_HOST_NETWORKS 10.213.0.0/27 is smaller than one module network (a /26): give a /26 or larger, e.g. a /16 for 1,024 modules"})
    void aBadSettingIsRefusedNamingTheVariable(String text, String message) {
        InvalidInput bad = assertThrows(InvalidInput.class, () -> NetworkRange.parse(text));
        assertEquals(List.of(message), bad.problems());
    }

    @Test
    void cidrsOverlapWhenOneHoldsTheOther() {
        assertTrue(net("10.0.0.0/8").overlaps(net("10.213.0.64/26")));
        assertTrue(net("10.213.0.64/26").overlaps(net("10.0.0.0/8")));
        assertTrue(!net("10.213.0.0/26").overlaps(net("10.213.0.64/26")));
        assertTrue(net("0.0.0.0/0").contains(net("255.255.255.255/32")));
        assertEquals("10.213.0.1", NetworkRange.gateway(net("10.213.0.0/26")));
        assertEquals("10.213.3.192/26", Cidr.enclosing(Cidr.address("10.213.3.200"), 26).toString());
    }
}
