package mesh.controller;

import mesh.wire.CallFailure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import mesh.model.BackupStep;
import mesh.model.Conflict;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.plan.Backup;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.wire.BackupProgress;
import mesh.wire.BackupVerifyRequest;

/**
 * BackupVerify is {@code mesh backup verify}: an agent fetches every blob of a backup and checks it against the backup's
 * manifest (the module's node if it answers, else the first node that does). The answer is recorded with the backup.
 * One call, not an operation: it changes nothing but the backup's verify mark.
 */
final class BackupVerify {

    private final MeshStore store;
    private final AgentClient agents;
    private final AuditTrail audit;

    BackupVerify(MeshStore store, AgentClient agents, AuditTrail audit) {
        this.store = store;
        this.agents = agents;
        this.audit = audit;
    }

    void verify(long id) {
        BackupRecords.Row r = store.inTransaction(c -> BackupRecords.byId(c, id))
                .orElseThrow(() -> new NotFound("no backup " + id + "; 'mesh backup list' shows the backups"));
        Backup b = r.backup();
        if (b.step() != BackupStep.DONE || b.manifest() == null) {
            throw new Conflict("backup " + id + " of module " + b.module() + " is " + b.step().state() + ": only a backup that is"
                    + " done can be verified");
        }
        Node on = verifier(b.node());
        BackupProgress last;
        try {
            last = new BackupAgents(agents).verify(on, new BackupVerifyRequest(b.registry(), b.repository(), b.manifest()), l -> { });
        } catch (CallFailure e) {
            throw new Conflict("backup " + id + " could not be verified: " + e.getMessage());
        }
        String error = Boolean.TRUE.equals(last.done()) ? null : last.error() == null ? "the verify failed" : last.error();
        store.inTransaction(c -> {
            BackupRecords.verified(c, id, error);
            audit.record(c, "backup verify", "module " + b.module() + ": backup " + id + (error == null ? " verified: every file"
                    + " matches its manifest" : " does not verify: " + error));
            return null;
        });
    }

    private Node verifier(String preferred) {
        List<Node> nodes = new ArrayList<>(store.inTransaction(store::nodes));
        nodes.sort(Comparator.comparing((Node n) -> !n.name().equals(preferred)).thenComparing(Node::name));
        for (Node n : nodes) {
            try {
                agents.statusQuickly(n);
                return n;
            } catch (CallFailure e) {
                // the next node
            }
        }
        throw new Conflict("no node's agent answers: a backup is verified by an agent, which fetches it from the registry");
    }
}
