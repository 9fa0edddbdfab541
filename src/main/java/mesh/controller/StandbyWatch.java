package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import mesh.plan.StandbySync;
import mesh.store.MeshStore;
import mesh.store.Replication;
import mesh.store.StandbyRecords;
import org.jboss.logging.Logger;

/**
 * StandbyWatch is the seat's controller applying {@link StandbySync} (docs/seat.md, "While the standby is away"):
 * every {@link #LOOK_EVERY} it reads the store's replication rows for each standby {@code mesh seat add} recorded, makes
 * one that is in sync synchronous, and one out of sync for {@link StandbySync#DEADLINE} asynchronous, so the seat's
 * commits wait for an away standby at most that long (plus one look). Since when a standby is out of sync is kept in
 * {@code standby_seats}, written with {@code synchronous_commit = local}: the watch's own write must not wait for the
 * standby it is about to let go. The newest verdicts are kept for {@code mesh status} ({@link #verdicts}).
 */
@ApplicationScoped
public class StandbyWatch {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    static final Duration LOOK_EVERY = Duration.ofSeconds(2);

    @Inject
    MeshStore store;

    @Inject
    AgentClient agents;

    private final Map<String, StandbySync.Verdict> verdicts = new ConcurrentHashMap<>();
    private final Map<String, Boolean> synchronous = new ConcurrentHashMap<>();
    private final Map<String, Long> lags = new ConcurrentHashMap<>();
    private Thread loop;

    /** Starts the loop (once). */
    public synchronized void start() {
        if (loop != null) {
            return;
        }
        // a platform thread, as the other watches': its store reads have no deadline of their own
        loop = Thread.ofPlatform().name("standby-watch").daemon(true).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    look(Instant.now());
                } catch (RuntimeException e) {
                    LOG.warnf("standby watch: %s", e.getMessage());
                }
                try {
                    mesh.model.Poll.pauseInterruptibly(LOOK_EVERY);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /**
     * One look at every standby: its verdict, the standbys to be synchronous set at once (each synchronous standby is
     * waited for by every commit: {@link StandbySync#standbyNames}), since when each is out of sync kept.
     */
    List<StandbySync.Verdict> look(Instant now) {
        List<StandbyRecords.Row> rows = standbys();
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<String, StandbySync.Verdict> looked = new LinkedHashMap<>();
        store.withConnection(c -> {
            List<StandbySync.Replica> replicas = Replication.replicas(c);
            Set<String> before = Replication.synchronousNames(c);
            for (StandbyRecords.Row row : rows) {
                looked.put(row.node(), StandbySync.of(row.node(), replicas, before.contains(row.node()), row.outOfSyncSince(), now));
                lags.put(row.node(), replicas.stream().filter(r -> r.name().equals(row.node()))
                        .mapToLong(StandbySync.Replica::lagBytes).findFirst().orElse(-1));
            }
            SortedSet<String> after = StandbySync.synchronousAfter(looked, before);
            if (!after.equals(before)) {
                Replication.setSynchronous(c, after);
            }
            looked.forEach((node, v) -> {
                if (v.change() != StandbySync.Change.NONE) {
                    LOG.infof("%s: %s", v.words(), v.change() == StandbySync.Change.MAKE_SYNCHRONOUS
                            ? "made synchronous" : "made asynchronous: the seat commits without it");
                }
                verdicts.put(node, v);
                synchronous.put(node, after.contains(node));
            });
            return null;
        });
        List<StandbySync.Verdict> result = new ArrayList<>();
        for (StandbyRecords.Row row : rows) {
            StandbySync.Verdict v = looked.get(row.node());
            keepSince(row.node(), row.outOfSyncSince(), v.outOfSyncSince());
            result.add(v);
        }
        return result;
    }

    private void keepSince(String node, Instant was, Instant now) {
        if (java.util.Objects.equals(was, now)) {
            return;
        }
        store.inTransaction(c -> {
            try (var s = c.createStatement()) {
                s.execute("set local synchronous_commit = local");
            }
            StandbyRecords.outOfSync(c, node, now);
            return null;
        });
    }

    /** The standbys recorded, but this controller's own node: a promoted standby is the seat, no standby of itself. */
    List<StandbyRecords.Row> standbys() {
        String seat = agents.speaksAs().seat();
        return store.inTransaction(StandbyRecords::all).stream().filter(r -> !r.node().equals(seat)).toList();
    }

    /** The standbys as last looked at, for {@code mesh status}. */
    public List<mesh.wire.SeatsView.Standby> view() {
        return standbys().stream().map(r -> {
            StandbySync.Verdict v = verdicts.get(r.node());
            if (v == null) {
                return new mesh.wire.SeatsView.Standby(r.node(), "UNKNOWN", false, -1, null,
                        "standby " + r.node() + ": not looked at yet (added " + r.added() + ")");
            }
            return new mesh.wire.SeatsView.Standby(r.node(), v.state().name(), synchronous.getOrDefault(r.node(), false),
                    lags.getOrDefault(r.node(), -1L), v.outOfSyncSince() == null ? null : v.outOfSyncSince().toString(), v.words());
        }).toList();
    }
}
