package mesh.controller;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.Manifest;
import mesh.model.NotFound;
import mesh.model.Placement;
import mesh.plan.Backup;
import mesh.plan.Take;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.store.TakeRecords;

/**
 * RestoreAsked is a {@code mesh restore} request checked against the store ({@link MeshRestore}): the restore it asks
 * for and the images its target needs, or the refusal that names what is wrong (an unknown module or node, a restore
 * onto the node the module runs on, a {@code --down} naming another node, a cordoned target, no backup done, a take or
 * restore under way).
 */
record RestoreAsked(Take restore, List<String> images) {

    /** The request checked in transaction {@code c}: the restore, numbered (its id and epoch) when {@code numbered}, else 0. */
    static RestoreAsked check(MeshStore store, Connection c, String module, Long backupId, String to, String down,
                              boolean numbered) throws SQLException {
        Manifest m = store.module(c, module).map(MeshStore.StoredModule::manifest).orElseThrow(() -> new NotFound(
                "unknown module " + module + "; 'mesh catalogue list' shows the modules"));
        Placement p = store.placement(c, module);
        String target = to != null ? to : p.taken();
        if (target == null) {
            throw new Conflict("module " + module + " runs nowhere: say where to restore it with --to NODE");
        }
        if (store.node(c, target).isEmpty()) {
            throw new NotFound("unknown node " + target + "; 'mesh node list' shows the nodes");
        }
        if (target.equals(p.taken())) {
            throw new Conflict("module " + module + " runs on " + target + ": a restore writes the backup onto another node"
                    + " (--to NODE), then 'mesh take " + target + " " + module + "' brings it back with that data");
        }
        if (down != null && !down.equals(p.taken())) {
            throw new InvalidInput(List.of("--down " + down + ": module " + module + (p.taken() == null ? " runs nowhere"
                    : " runs on " + p.taken() + ", not on " + down) + "; --down names the node the module runs on, when that"
                    + " node is down"));
        }
        CordonGuard.refuse(c, "restore", module, target, false);
        Backup b = RestoreOperation.chosen(c, module, backupId);
        UnderWay.refuse(c, module, UnderWay.Verb.RESTORE);
        List<Take.Volume> volumes = b.volumes().stream().map(Take.Volume::of).toList();
        Take r = numbered
                ? Take.restore(BackupRecords.nextRestoreId(c), module, b.id(), p.taken(), target, TakeRecords.nextEpoch(c),
                        volumes, down)
                : Take.restore(0, module, b.id(), p.taken(), target, 0, volumes, down);
        return new RestoreAsked(r, RestoreOperation.images(m));
    }
}
