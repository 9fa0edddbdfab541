package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.plan.BackupRetention;
import mesh.model.BackupStep;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.wire.BackupStatus;

/**
 * BackupStatuses is what {@code mesh status} says of backups: for each module with a schedule or a backup, its last
 * backup and last good one, when the next is due, and whether its registry runs on the module's own node (a backup on
 * the same disk is not a backup: docs/backup.md, "Where backups go"). One store transaction; no agent is asked.
 */
@ApplicationScoped
public class BackupStatuses {

    @Inject
    MeshStore store;

    public List<BackupStatus> all(Instant now) {
        return store.inTransaction(c -> {
            List<Node> nodes = store.nodes(c);
            List<Placement> placements = store.placements(c);
            List<BackupRecords.Row> rows = BackupRecords.list(c, null, false);
            List<BackupStatus> out = new ArrayList<>();
            for (Manifest m : store.catalogue(c)) {
                List<BackupRecords.Row> mine = rows.stream().filter(r -> r.backup().module().equals(m.module())).toList();
                if (m.backup() == null && mine.isEmpty()) {
                    continue;
                }
                String runsOn = placements.stream().filter(p -> p.module().equals(m.module())).map(Placement::taken)
                        .filter(java.util.Objects::nonNull).findFirst().orElse(null);
                String registry;
                try {
                    registry = MeshBackup.registry(m, nodes, placements);
                } catch (RuntimeException e) {
                    registry = null;
                }
                String registryNode = registryNode(m, registry, nodes, placements);
                BackupRecords.Row last = mine.isEmpty() ? null : mine.get(0);
                BackupRecords.Row good = mine.stream().filter(r -> r.backup().step() == BackupStep.DONE).findFirst().orElse(null);
                Long every = m.backup() == null ? null : m.backup().every();
                Instant next = BackupRetention.next(every == null ? null : Duration.ofSeconds(every),
                        last == null ? null : last.startedAt(), now);
                Backup lb = last == null ? null : last.backup();
                out.add(new BackupStatus(m.module(), runsOn, every, m.backupOrDefault().kept(), lb == null ? null : lb.id(),
                        lb == null ? null : lb.step().state(), last == null ? null : MeshBackup.text(last.startedAt()),
                        lb == null ? null : lb.error(), good == null ? null : good.backup().id(),
                        good == null ? null : MeshBackup.text(good.startedAt()), MeshBackup.text(next), registry, registryNode,
                        BackupRetention.sameDisk(runsOn, registryNode)));
            }
            return out;
        });
    }

    /** The node the module's registry runs on: mesh-registry's node, or the node whose address the registry URL names. */
    static String registryNode(Manifest m, String registry, List<Node> nodes, List<Placement> placements) {
        if (registry == null) {
            return null;
        }
        if (m.backupOrDefault().registry() == null) {
            return placements.stream().filter(p -> p.module().equals("mesh-registry")).map(Placement::taken)
                    .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        }
        String host;
        try {
            host = URI.create(registry).getHost();
        } catch (IllegalArgumentException e) {
            return null;
        }
        return nodes.stream().filter(n -> n.address().equals(host)).map(Node::name).findFirst().orElse(null);
    }
}
