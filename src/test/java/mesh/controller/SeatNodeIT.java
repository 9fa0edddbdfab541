package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URL;
import java.util.List;
import mesh.install.SeatApi;
import mesh.wire.NodeView;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SeatNodeIT: the installer's own call that adds the seat to its controller ({@link SeatApi#addNode})
 * keeps {@code mesh install --public-domain} (it was dropped: the node had name and address only),
 * and again on a rerun, which finds the node there. This controller, over the test bed's PostgreSQL.
 */
@QuarkusTest
class SeatNodeIT {

    @Inject
    MeshController controller;

    @Inject
    AgroalDataSource dataSource;

    @TestHTTPResource("/")
    URL root;

    SeatApi api;

    @BeforeEach
    void start() throws Exception {
        if (!controller.serving()) {
            String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
            controller.start(new ControllerSettings(url, "seat-node-it-" + System.nanoTime(), ControllerSettings.DEFAULT_PUSH_BUDGET, 0));
        }
        StoreSnapshot.wipe(dataSource);
        api = new SeatApi(root.toString(), controller.settings().token(), javax.net.ssl.SSLContext.getDefault());
    }

    @AfterEach
    void wipe() {
        StoreSnapshot.wipe(dataSource);
    }

    @Test
    void theSeatIsAddedWithItsPublicDomainAlsoOnARerun() {
        api.addNode("novox", "10.77.0.11", "zurag.test");
        assertEquals("zurag.test", seat().publicDomain());
        api.addNode("novox", "10.77.0.11", "zurag.test");
        assertEquals(List.of("novox"), api.nodes().stream().map(NodeView::name).toList());
        assertEquals("zurag.test", seat().publicDomain());
    }

    @Test
    void withoutOneTheSeatHasNoPublicDomain() {
        api.addNode("novox", "10.77.0.11", null);
        assertNull(seat().publicDomain());
    }

    NodeView seat() {
        return api.nodes().stream().filter(n -> n.name().equals("novox")).findFirst().orElseThrow();
    }
}
