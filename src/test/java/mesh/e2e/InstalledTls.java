package mesh.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import mesh.cli.ConfigFile;
import mesh.testbed.InstalledMesh;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.TlsDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * InstalledTls is what the trust ITs (TlsIT, RotateIT, SecurityIT) read of an {@link InstalledMesh} beyond
 * the fixture's own methods, all of it files {@code mesh install} wrote: each node's TLS folder, the seat's
 * CA with its key, the controller's log under the seat agent's state, and the seat's store (its password
 * from install's secrets). {@link #backdateAgent} is the one thing made by hand: install issues every
 * certificate fresh, and the expiry warning and a rotation need an agent certificate near its end.
 */
final class InstalledTls {

    private InstalledTls() {
    }

    /** The node's TLS folder: the mesh CA, {@code agent.crt} and {@code agent.key} (on the seat the controller's too). */
    static TlsDir of(InstalledMesh mesh, String node) {
        return new TlsDir(mesh.node(node).state().resolve("tls"));
    }

    /** The mesh CA with its key, from the seat. */
    static MeshCa ca(InstalledMesh mesh) {
        TlsDir seat = mesh.seatTls();
        return new MeshCa(Pem.certificate(seat.caCert()), Pem.key(seat.caKey()));
    }

    /**
     * Replaces the node's agent certificate and key by ones of the mesh CA issued as of {@code issued}
     * (for the node's name and address, as install issues them; valid a year from then) and restarts its
     * agent with install's launcher line, so it serves them.
     */
    static void backdateAgent(InstalledMesh mesh, String node, Instant issued) throws Exception {
        MeshCa ca = ca(mesh);
        MeshCa.Issued cert = ca.issue(MeshCa.Role.AGENT, node, List.of(node, mesh.testbed(node).address()), issued);
        of(mesh, node).writeIssued("agent", cert.certificate(), cert.key(), ca.certificate());
        mesh.restartAgent(node, Map.of());
    }

    /** The controller's output: the seat's agent supervises it and writes it to its log folder. */
    static Path controllerLog(InstalledMesh mesh) {
        return mesh.seat().state().resolve("host/logs/mesh-controller.serve.log");
    }

    /** The seat's store (the mesh-store container on the seat's address), as the controller reaches it. */
    static PGSimpleDataSource store(InstalledMesh mesh) throws IOException {
        Map<String, String> secrets = ConfigFile.read(mesh.seat().state().resolve("install/secrets.env"));
        PGSimpleDataSource store = new PGSimpleDataSource();
        store.setURL("jdbc:postgresql://" + mesh.testbed(mesh.seat().name).address() + ":5432/mesh");
        store.setUser("mesh");
        store.setPassword(secrets.get("MESH_STORE_PASSWORD"));
        return store;
    }
}
