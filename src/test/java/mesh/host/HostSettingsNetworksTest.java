package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import mesh.model.Cidr;
import mesh.model.InvalidInput;
import mesh.plan.NetworkRange;
import org.junit.jupiter.api.Test;

/** HostSettingsNetworksTest: MESH_HOST_NETWORKS as the agent's settings read it. */
class HostSettingsNetworksTest {

    @Test
    void absentIsTheDefaultRange() {
        assertEquals(NetworkRange.DEFAULT, HostSettings.forServe(Map.of("MESH_HOST_NODE", "n1")).networks());
    }

    @Test
    void setIsTheNodesRange() {
        assertEquals(Cidr.parse("192.168.64.0/18", "t"), HostSettings.forLocal(Map.of("MESH_HOST_NETWORKS", "192.168.64.0/18"))
                .networks());
    }

    @Test
    void aBadRangeStopsTheAgentNamingTheVariable() {
        InvalidInput bad = assertThrows(InvalidInput.class,
                () -> HostSettings.forServe(Map.of("MESH_HOST_NODE", "n1", "MESH_HOST_NETWORKS", "10.213.0.0")));
        assertEquals(List.of("MESH_HOST_NETWORKS must be an IPv4 network like 10.213.0.0/16, got '10.213.0.0'"), bad.problems());
    }
}
