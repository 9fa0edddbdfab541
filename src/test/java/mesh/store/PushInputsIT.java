package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.model.Placement;
import mesh.plan.PushInput;
import mesh.plan.Rollback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PushInputsIT: the kept push inputs (V6__push_inputs.sql) on the test bed's real PostgreSQL, in a
 * database of this test's own, migrated as the controller migrates it. An input reads back as it was
 * kept; only the newest {@value Rollback#KEPT} are kept, pruned in the transaction that keeps one; a
 * restore makes the catalogue and placements exactly the input's.
 */
class PushInputsIT {

    static final Manifest WEB = ManifestYaml.parse("web.yaml", """
            module: web
            components:
              web.server: {image: mesh-test/busybox:1, env: {V: "1"}, volumes: {data: /data}}
            """);
    static final Manifest APP = ManifestYaml.parse("app.yaml", """
            module: app
            components:
              app.server: {image: mesh-test/busybox:1, binds: [web.internal]}
            """);

    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();
    final MeshStore store = new MeshStore();

    static PushInput input(long push) {
        return new PushInput(push, List.of(new PushInput.Module(WEB, "web.yaml"), new PushInput.Module(APP, "app.yaml")),
                List.of(new Placement("web", "n1", "n1"), new Placement("app", "n2", null)),
                List.of(new PushInput.PlannedNode("n1", "zurag.test"), new PushInput.PlannedNode("n2", null)),
                Map.of("tool:1", "tool@sha256:" + "a".repeat(64)), push % 2 == 0 ? push - 1 : null);
    }

    @Test
    void anInputReadsBackAsKeptAndOnlyTheNewestAreKept() throws Exception {
        try (Connection c = connect()) {
            for (long push = 1; push <= Rollback.KEPT + 5; push++) {
                PushInputs.keep(c, input(push));
                c.commit();
            }
            assertEquals(input(Rollback.KEPT + 4), PushInputs.find(c, Rollback.KEPT + 4).orElseThrow());
            assertEquals(Optional.empty(), PushInputs.find(c, 5), "push 5 is past the retention");
            assertTrue(PushInputs.find(c, 6).isPresent(), "push 6 is the oldest of the newest " + Rollback.KEPT);
            List<PushInputs.Kept> kept = PushInputs.list(c);
            assertEquals(Rollback.KEPT, kept.size());
            assertEquals(Rollback.KEPT + 5, kept.get(0).push(), "newest first");
            assertEquals(2, kept.get(0).modules());
            assertEquals(Long.valueOf(Rollback.KEPT + 3), kept.get(1).rollbackOf(), "push 54 was a rollback to 53");
            assertEquals("", kept.get(0).verb(), "no audit row in this store: listed all the same");
        }
    }

    @Test
    void aRestoreMakesTheCatalogueAndPlacementsExactlyTheInputs() throws Exception {
        try (Connection c = connect()) {
            store.addNode(c, new mesh.model.Node("n1", "10.77.0.11", "https://10.77.0.11:7701", null));
            store.addNode(c, new mesh.model.Node("n2", "10.77.0.12", "https://10.77.0.12:7701", null));
            Manifest other = ManifestYaml.parse("other.yaml", "module: other\ncomponents:\n  other.server: {image: x:1}\n");
            Manifest newer = ManifestYaml.parse("web.yaml", "module: web\ncomponents:\n  web.server: {image: mesh-test/busybox:2}\n");
            store.putModule(c, other, "other.yaml");
            store.putModule(c, newer, "web-new.yaml");
            store.putPlacement(c, new Placement("other", "n2", "n2"));
            store.putPlacement(c, new Placement("web", "n2", "n2"));
            PushInput in = input(3);
            PushInputs.restore(c, store, in.catalogue(), in.placements());
            assertEquals(List.of(APP, WEB), store.catalogue(c), "other left, app came back, web as it was");
            assertEquals("web.yaml", store.module(c, "web").orElseThrow().source());
            assertEquals(List.of(new Placement("app", "n2", null), new Placement("web", "n1", "n1")), store.placements(c));
        }
    }

    @Test
    void theVerbOfAnAuditRowSaysWhatAnUnkeptIdIs() throws Exception {
        try (Connection c = connect()) {
            long id = new TrustStore().record(c, "admin", "assign", "module web: assigned nowhere → n1");
            assertEquals(Optional.of("assign"), PushInputs.auditVerb(c, id));
            assertEquals(Optional.empty(), PushInputs.auditVerb(c, id + 1000));
        }
    }

    private Connection connect() throws SQLException {
        Connection c = database.connect();
        c.setAutoCommit(false);
        return c;
    }
}
