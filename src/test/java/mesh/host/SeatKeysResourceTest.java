package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SeatKeysResourceTest {

    @Test
    void theSeatsKeysGoWhereTheSeatKeepsThemNotInTheAgentsOwnFolder() {
        assertEquals(Path.of("/var/lib/mesh"), SeatKeysResource.installState(Path.of("/var/lib/mesh/host")));
        assertEquals(Path.of("/srv/agent-state"), SeatKeysResource.installState(Path.of("/srv/agent-state")));
    }
}
