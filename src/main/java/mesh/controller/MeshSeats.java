package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.FormerSeat;
import mesh.plan.SeatCatalogue;
import mesh.plan.SeatKeys;
import mesh.plan.StandbyPlan;
import mesh.store.MeshStore;
import mesh.store.Replication;
import mesh.store.StandbyRecords;
import mesh.wire.NodeView;
import mesh.wire.SeatKeyFiles;
import mesh.wire.SeatsView;
import mesh.wire.StandbyAdded;

/**
 * MeshSeats is {@code mesh seat add NODE} on the seat's controller (docs/seat.md, "A standby seat"), step by step, each
 * safe to run again: the seat's store prepared for the standby ({@link Replication#prepare}: role, slot, pg_hba); the
 * seat's keys sent to the node's agent over mutual TLS ({@link SeatKeys}); the {@code mesh-standby} module
 * ({@link StandbyPlan#manifest}) put in the catalogue with its replication password as a sealed secret, assigned to
 * the node and pushed there, where {@code pg_basebackup} fills it and it streams; the node recorded as a standby, so
 * {@link StandbyWatch} makes it synchronous once it has caught up. On a promoted seat, for the seat it deposed
 * ({@link FormerSeat}), the deposed store's and controller's placements are let go there first and the push stops them
 * there, and the standby is a module of its own. And {@link #view}: the seats for {@code mesh status}.
 */
@ApplicationScoped
public class MeshSeats {

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @Inject
    MeshSecrets secrets;

    @Inject
    MeshPush pushes;

    @Inject
    AgentClient agents;

    @Inject
    StandbyWatch watch;

    @Inject
    AuditTrail audit;

    @Inject
    MeshStatus status;

    public StandbyAdded add(String node) {
        String seat = agents.speaksAs().seat();
        List<NodeView> nodes = store.inTransaction(controller::nodes);
        NodeView standby = nodes.stream().filter(n -> n.name().equals(node)).findFirst()
                .orElseThrow(() -> new mesh.model.NotFound("no node " + node + ": join it first ('mesh install --join')"));
        if (node.equals(seat)) {
            throw new Conflict(node + " is the seat: a standby is another node");
        }
        NodeView seatNode = nodes.stream().filter(n -> n.name().equals(seat)).findFirst()
                .orElseThrow(() -> new Conflict("this controller names no seat of the mesh's nodes (MESH_SEAT_NODE '" + seat
                        + "'): a standby is added on a mesh 'mesh install' seated"));
        String image = storeImage();
        List<String> done = new ArrayList<>();
        List<Placement> placements = store.inTransaction(store::placements);
        List<String> former = FormerSeat.held(node, seat, placements);
        String module = FormerSeat.standbyModule(node, placements);
        String password = mesh.install.InstallJournal.newToken();
        done.addAll(store.withConnection(c -> Replication.prepare(c, node, password)));
        Node target = new Node(standby.name(), standby.address(), standby.agent(), standby.publicDomain());
        mesh.wire.SeatKeysKept kept = agents.seatKeys(target, keys());
        done.add("the seat's keys kept 0600 on " + node + ": " + String.join(", ", kept.files()));
        if (!former.isEmpty()) {
            letGo(node, former);
            done.add(node + " was a seat (it held " + String.join(" and ", former) + "): both let go there, never a second seat;"
                    + " its deposed store's volume stays on it, kept aside; a fresh base backup fills " + module);
        }
        controller.addCatalogue(List.of(new mesh.wire.ManifestFile(module + ".yaml",
                StandbyPlan.manifest(module, image, seatNode.address(), node))));
        secrets.set(module, StandbyPlan.PASSWORD_SECRET, password);
        controller.assign(node, module);
        mesh.wire.PushReport report = push(node, seat);
        done.add(module + " pushed to " + node + (report.complete() ? "" : " (not complete: "
                + report.nodes().stream().map(n -> n.node() + " " + n.outcome() + (n.error() == null ? "" : ": " + n.error())).toList() + ")"));
        store.inTransaction(c -> {
            StandbyRecords.add(c, node, Instant.now());
            return null;
        });
        done.add(node + " recorded as the standby: made synchronous once it has caught up");
        return new StandbyAdded(node, "https://" + standby.address() + ":7700", done);
    }

    /** Lets the deposed seat's store and controller go from {@code node} ({@link FormerSeat}), in the audit trail. */
    private void letGo(String node, List<String> modules) {
        store.inTransaction(c -> {
            for (Placement p : store.placements(c)) {
                if (modules.contains(p.module())) {
                    store.putPlacement(c, FormerSeat.letGo(p, node));
                }
            }
            audit.record(c, "seat add", node + " held the deposed seat's " + String.join(" and ", modules) + ": let go there");
            return null;
        });
    }

    /**
     * The push that places the standby; on a node that still runs the seat's store or controller
     * ({@link FormerSeat#stillRuns}, a deposed seat) it lets them go there, which the mesh-module guard would refuse.
     */
    private mesh.wire.PushReport push(String node, String seat) {
        List<String> running = java.util.Optional.ofNullable(mesh.plan.MeshModules.acked(store.pushSnapshot().sent()).get(node))
                .map(d -> d.components().stream().map(mesh.model.ComponentSpec::module).distinct().toList()).orElse(List.of());
        if (!FormerSeat.stillRuns(node, seat, running)) {
            return pushes.push(List.of(node), false, true);
        }
        try (mesh.store.PushLock lock = store.lockPushes()) {
            return pushes.planAndSend(PushPlanInput.of(store.pushSnapshot()).fromFormerSeat(node), List.of(node), false, true,
                    null, java.util.Set.of(), false);
        }
    }

    /** The seat, its epoch and each standby as the watch last found it. */
    public SeatsView view() {
        mesh.plan.SeatEpoch as = agents.speaksAs();
        return new SeatsView(as.seat(), as.epoch(), watch.view(), status.artifactStore(store.inTransaction(c -> store.nodes(c))));
    }

    /** The seat's store image, from the catalogue's {@code mesh-store}: the standby runs the same PostgreSQL. */
    private String storeImage() {
        mesh.wire.ModuleDetail store;
        try {
            store = controller.module(SeatCatalogue.STORE);
        } catch (mesh.model.NotFound e) {
            throw new Conflict("this mesh's store is not its own module (mesh install --store-url): its replication is the "
                    + "store's operator's, not 'mesh seat add'");
        }
        return store.manifest().components().values().stream().map(c -> c.image()).filter(java.util.Objects::nonNull)
                .findFirst().orElseThrow(() -> new Conflict("the catalogue's " + SeatCatalogue.STORE + " names no image"));
    }

    /** The seat's keys, read from the seat's state folder (the secrets key file's grandparent, as the state backup reads it). */
    private SeatKeyFiles keys() {
        Path secretsKey = controller.settings() == null ? null : controller.settings().secretsKeyFile();
        if (secretsKey == null) {
            throw new Conflict("this controller runs without the seat's keys (no MESH_SECRETS_KEY_FILE): a standby is added on an installed seat");
        }
        Path state = secretsKey.toAbsolutePath().getParent().getParent();
        Map<String, String> files = new LinkedHashMap<>();
        for (String name : SeatKeys.FILES) {
            Path file = state.resolve(name);
            if (!Files.isRegularFile(file)) {
                if (SeatKeys.NEEDED.contains(name)) {
                    throw new InvalidInput(List.of("the seat's key " + file + " is missing: the standby could not take over"));
                }
                continue;
            }
            try {
                files.put(name, Base64.getEncoder().encodeToString(Files.readAllBytes(file)));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the seat's key " + file + ": " + e.getMessage(), e);
            }
        }
        return new SeatKeyFiles(files);
    }
}
