package mesh.controller;

import mesh.wire.CallFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.BackupRetention;
import mesh.store.BackupRecords;
import mesh.store.MeshStore;
import mesh.model.BackupVolume;
import org.jboss.logging.Logger;

/**
 * BackupWatch is the controller's own loop for backups (docs/backup.md): every {@link #LOST_EVERY} it fences the lost
 * copies of restored modules on their nodes the moment those nodes' agents answer again (and records each as the
 * restore's old copy there, then pushes that node its declaration without the module) and deletes the copies rolled-back
 * takes left on targets that did not answer ({@link LeftCopies}), carries on a backup whose runner let go (its unfence
 * failed every try: the module stays stopped until it goes through, so a backup is never left waiting), and every {@link #SCHEDULE_EVERY}
 * it begins the backups the schedules say are due ({@link BackupRetention#due}). One platform thread (a daemon); each pass
 * catches its own failures, so the loop never dies of one.
 *
 * <p>Not a virtual thread: every pass reads the store over its JDBC socket, and in the native executable a virtual thread's
 * blocking socket read goes through the JDK's poller, which can miss its wake-up and wait for ever though the answer has
 * arrived (oracle/graal#13787, native image only, more often under load). A loop stuck so stops every rule it keeps at
 * once: lost copies are not fenced, schedules not begun, a backup whose runner let go not carried on. A platform thread
 * blocks in the kernel's read instead; one thread for the controller's life costs nothing a virtual one saves.
 */
@ApplicationScoped
public class BackupWatch {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    static final Duration LOST_EVERY = Duration.ofSeconds(2);
    static final Duration SCHEDULE_EVERY = Duration.ofSeconds(30);

    @Inject
    MeshStore store;

    @Inject
    MeshBackup backups;

    @Inject
    MeshPush pushes;

    @Inject
    AuditTrail audit;

    @Inject
    AgentClient agents;

    private final Periodic loop = new Periodic("backup-watch", LOST_EVERY, false, this::pass, LOG);
    private Instant nextSchedule = Instant.MIN;

    /** Starts the loop (once). */
    public void start() {
        loop.start();
    }

    /** The loop's thread, null before {@link #start} (for its test). */
    Thread loop() {
        return loop.thread();
    }

    /** One pass of the loop: lost copies fenced, left copies deleted, backups resumed, the schedules read when due. */
    private void pass() {
        fenceLostCopies();
        new LeftCopies(store, agents).deleteWhereAnswering(audit);
        backups.resumeAll();   // a backup whose runner let go (its unfence): the module waits stopped until it goes through
        Instant now = Instant.now();
        if (!now.isBefore(nextSchedule)) {   // the schedules are read every SCHEDULE_EVERY, not every pass
            nextSchedule = now.plus(SCHEDULE_EVERY);
            beginDue(now);
        }
    }

    /** Fences every lost copy whose node answers now; a node that still does not answer is asked again next time. */
    void fenceLostCopies() {
        List<BackupRecords.LostCopy> lost = store.inTransaction(BackupRecords::unfenced);
        if (lost.isEmpty()) {
            return;
        }
        Map<String, Node> nodes = new java.util.TreeMap<>();
        store.inTransaction(store::nodes).forEach(n -> nodes.put(n.name(), n));
        TakeAgents calls = new TakeAgents(agents);
        for (BackupRecords.LostCopy l : lost) {
            Node n = nodes.get(l.node());
            if (n == null) {
                continue;   // the node was removed: nothing of it can start the module any more
            }
            if (!agents.answers(n)) {
                continue;   // still away
            }
            try {
                try {
                    calls.fence(n, l.module(), l.epoch());
                } catch (CallFailure e) {
                    if (e.reason() != mesh.wire.Reason.NEWER_EPOCH) {
                        throw e;
                    }
                    // a newer take holds the module there: it decides now
                }
                try {
                    calls.oldCopy(n, l.module(), l.epoch(), l.volumes().stream().map(BackupVolume::name).toList());
                } catch (CallFailure e) {
                    if (e.status() != 404 && e.status() != 409) {
                        throw e;
                    }
                    // its volumes are gone (a new disk), or a newer take holds it: no old copy to record
                }
            } catch (RuntimeException e) {
                LOG.warnf("the lost copy of %s on %s is not fenced yet: %s", l.module(), l.node(), e.getMessage());
                continue;
            }
            store.inTransaction(c -> {
                BackupRecords.fenced(c, l.module(), l.node(), l.epoch());
                audit.record(c, "restore", "module " + l.module() + ": its lost copy on " + l.node() + " fenced (the node answers"
                        + " again; it keeps the data as an old copy and never starts it)");
                return null;
            });
            LOG.infof("fenced the lost copy of %s on %s (epoch %d)", l.module(), l.node(), l.epoch());
            try {
                pushes.push(List.of(l.node()), false, true);
            } catch (RuntimeException e) {
                LOG.infof("node %s is sent its declaration by the next push: %s", l.node(), e.getMessage());
            }
        }
    }

    /** Begins every backup the schedules say is due at {@code now}. */
    void beginDue(Instant now) {
        List<BackupRetention.Schedule> schedules = store.inTransaction(c -> {
            List<Placement> placements = store.placements(c);
            List<BackupRecords.Row> rows = BackupRecords.list(c, null, true);
            List<BackupRetention.Schedule> found = new ArrayList<>();
            for (Manifest m : store.catalogue(c)) {
                if (m.backup() == null || m.backup().every() == null) {
                    continue;
                }
                boolean runs = placements.stream().anyMatch(p -> p.module().equals(m.module()) && p.taken() != null);
                List<BackupRecords.Row> mine = rows.stream().filter(r -> r.backup().module().equals(m.module())).toList();
                Instant last = mine.stream().map(BackupRecords.Row::startedAt)
                        .max(Instant::compareTo).orElse(null);
                found.add(new BackupRetention.Schedule(m.module(), Duration.ofSeconds(m.backup().every()), runs,
                        mine.stream().anyMatch(r -> !r.backup().step().ended()), last));
            }
            return found;
        });
        for (String module : BackupRetention.due(schedules, now)) {
            try {
                backups.begin(module, "schedule");
                LOG.infof("began the scheduled backup of %s", module);
            } catch (Conflict | mesh.model.NotFound e) {
                LOG.infof("the scheduled backup of %s waits: %s", module, e.getMessage());
            }
        }
    }
}
