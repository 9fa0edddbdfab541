package mesh.controller;

import mesh.wire.CallFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.BackupVolume;
import mesh.model.Node;
import mesh.plan.Take;
import mesh.plan.Operation;
import mesh.plan.TakePlan;
import mesh.model.Poll;
import mesh.store.LeftCopyRecords;
import mesh.store.LeftCopyRecords.LeftCopy;
import mesh.store.MeshStore;
import org.jboss.logging.Logger;

/**
 * LeftCopies is what a rolled-back take could not finish on a target that does not answer (its agent stopped,
 * its link down): the delete of its partial copy. The take records the copy as left ({@link #leave}) and ends
 * rolled back at once, the module running on its source again, instead of waiting on a node that may not answer
 * for hours; the copy was never started there (that node was never sent a declaration with the module), and the
 * controller's watch deletes it the moment the node's agent answers ({@link #deleteWhereAnswering}).
 */
final class LeftCopies {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    /**
     * How long a rollback's delete-copy waits for a target that does not answer before it leaves the copy: long enough
     * for an agent that was killed and is started again (seconds), short enough that a take whose target is stopped
     * ends within 90 s of the stall (30 s without progress, then this).
     */
    static final Duration GRACE = Duration.ofSeconds(25);
    static final Duration GRACE_EVERY = Duration.ofSeconds(1);

    private final MeshStore store;
    private final AgentClient agents;

    LeftCopies(MeshStore store, AgentClient agents) {
        this.store = store;
        this.agents = agents;
    }

    /** Whether the node's agent answers a status call within {@code grace}, asked every {@link #GRACE_EVERY}. */
    boolean answersWithin(Node node, Duration grace) {
        return Poll.until(grace, GRACE_EVERY, () -> agents.answers(node));
    }

    /** Records {@code t}'s copy on its target as left, and the outcome that ends the take rolled back. */
    Operation.Outcome leave(Take t, String why) {
        List<BackupVolume> volumes = t.volumes().stream().map(v -> new BackupVolume(v.name(), v.kind())).toList();
        store.inTransaction(c -> {
            LeftCopyRecords.leave(c, new LeftCopy(t.module(), t.to(), t.epoch(), volumes));
            return null;
        });
        return new TakePlan.Left(why);
    }

    /** Deletes every left copy whose node answers now; one that still does not answer is asked again next time. */
    void deleteWhereAnswering(AuditTrail audit) {
        List<LeftCopy> left = store.inTransaction(LeftCopyRecords::all);
        if (left.isEmpty()) {
            return;
        }
        Map<String, Node> nodes = new java.util.TreeMap<>();
        store.inTransaction(store::nodes).forEach(n -> nodes.put(n.name(), n));
        TakeAgents calls = new TakeAgents(agents);
        for (LeftCopy l : left) {
            Node n = nodes.get(l.node());
            if (n != null && !agents.answers(n)) {
                continue;   // still away
            }
            try {
                for (BackupVolume v : n == null ? List.<BackupVolume>of() : l.volumes()) {
                    delete(calls, n, l, v);
                }
            } catch (RuntimeException e) {
                LOG.warnf("the copy of %s a rolled-back take left on %s is not deleted yet: %s", l.module(), l.node(), e.getMessage());
                continue;
            }
            store.inTransaction(c -> {
                LeftCopyRecords.deleted(c, l);
                audit.record(c, "take", "module " + l.module() + ": the partial copy its rolled-back take (epoch " + l.epoch()
                        + ") left on " + l.node() + " is deleted (the node answers again)");
                return null;
            });
            LOG.infof("deleted the copy of %s that the take at epoch %d left on %s", l.module(), l.epoch(), l.node());
        }
    }

    /** Deletes one volume of the left copy; one that is not that take's copy any more (deleted, or a newer take's) is passed over. */
    private static void delete(TakeAgents calls, Node n, LeftCopy l, BackupVolume v) {
        try {
            calls.delete(n, l.module(), v.name(), v.kind(), l.epoch(), "rollback");
        } catch (CallFailure e) {
            if (e.reason() != mesh.wire.Reason.NOT_TAKES_COPY) {
                throw e;
            }
        }
    }
}
