package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.Cidr;
import mesh.plan.NetworkRange.HostNet;
import org.junit.jupiter.api.Test;

/** HostNetworksTest: the routes of /proc/net/route, read as networks (little-endian hex). */
class HostNetworksTest {

    static final String ROUTES = """
            Iface	Destination	Gateway 	Flags	RefCnt	Use	Metric	Mask		MTU	Window	IRTT
            eth0	00000000	01004D0A	0003	0	0	0	00000000	0	0	0
            eth0	00004D0A	00000000	0001	0	0	0	00FFFFFF	0	0	0
            docker0	000011AC	00000000	0001	0	0	0	0000FFFF	0	0	0
            br-0123456789ab	0000D50A	00000000	0001	0	0	0	C0FFFFFF	0	0	0
            garbage line
            """;

    @Test
    void routesReadAsNetworksOnTheirDevices() {
        assertEquals(List.of(
                HostNet.route("eth0", Cidr.parse("0.0.0.0/0", "t")),
                HostNet.route("eth0", Cidr.parse("10.77.0.0/24", "t")),
                HostNet.route("docker0", Cidr.parse("172.17.0.0/16", "t")),
                HostNet.route("br-0123456789ab", Cidr.parse("10.213.0.0/26", "t"))), HostNetworks.routes(ROUTES));
    }

    @Test
    void theLoopbackIsAmongTheAddresses() {
        assertEquals(true, HostNetworks.read().stream().anyMatch(h -> "127.0.0.1".equals(h.address())));
    }
}
