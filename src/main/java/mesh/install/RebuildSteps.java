package mesh.install;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;
import mesh.plan.InstallStep;
import mesh.plan.Rebuild;
import mesh.plan.SeatCatalogue;
import mesh.store.RebuildRecords;
import mesh.store.StoreCopy;
import mesh.trust.RecoveryKey;
import mesh.wire.NodeStatus;

/**
 * RebuildSteps raises a seat from a state backup ({@code mesh install --from-backup}, docs/rebuild.md): the seat's
 * steps ({@link SeatSteps}, its controller step pushing the seat alone) with three of its own. {@code keys} writes the
 * backup's files back (the same CA, secrets key, admin token and store password) and the recovery key; {@code load}
 * migrates the fresh store and copies the backup's rows in, then adopts ({@link Rebuild#adopt}); {@code adopt} asks the
 * new controller how each node's agent answers, and says so, replacing nothing.
 */
public final class RebuildSteps implements InstallRunner.Steps {

    private final InstallOptions o;
    private final StateBackups.Opened backup;
    private final RecoveryKey recovery;
    private final SeatSteps seat;
    private final Consumer<String> say;

    public RebuildSteps(InstallOptions o, InstallJournal journal, Consumer<String> say, StateBackups.Opened backup,
                        RecoveryKey recovery) {
        this.o = o;
        this.backup = backup;
        this.recovery = recovery;
        this.say = say;
        this.seat = new SeatSteps(o, journal, say).rebuilt();
    }

    @Override
    public void run(InstallStep step) {
        switch (step) {
            case KEYS -> keys();
            case LOAD -> load();
            case ADOPT -> adopt();
            default -> seat.run(step);
        }
    }

    /** The seat's files written back where they were (0600), and the recovery key beside them, so backups go on. */
    void keys() {
        try {
            SeatState.write(o.stateDir(), backup.seatFiles());
            recovery.write(o.stateDir().resolve("install").resolve(RecoveryKey.FILE));
        } catch (IOException e) {
            throw new InstallFailure("cannot write the seat's keys under " + o.stateDir() + ": " + e.getMessage(), e);
        }
        say.accept("      the mesh CA, the secrets key, the admin token and the store's password of the backup made "
                + backup.header().made() + " are back");
    }

    /**
     * The store, raised empty by the store step, migrated to this build's schema and given the backup's rows (a copy
     * of another schema version refused, nothing copied), then adopted: what was under way failed, the old seat's
     * modules lost, the seat's node moved to this machine's address.
     */
    void load() {
        String url = seat.storeUrl();
        try {
            RebuildRecords.migrate(url, "mesh", seat.storePassword());
        } catch (RuntimeException e) {
            throw new InstallFailure("cannot migrate the store at " + url + ": " + e.getMessage(), e);
        }
        try (Connection c = DriverManager.getConnection(url, "mesh", seat.storePassword())) {
            StoreCopy.copyIn(c, backup.storeRows());
            Rebuild.Adoption a = Rebuild.adopt(o.node(), SeatCatalogue.MODULES, RebuildRecords.placements(c),
                    RebuildRecords.running(c), backup.header().made());
            String audit = "rebuilt on " + o.address() + " from the state backup of " + backup.header().made()
                    + (a.lost().isEmpty() ? "" : "; lost with the old seat: " + String.join(", ", a.lost()))
                    + (a.failed().isEmpty() ? "" : "; failed: " + a.failed().size() + " under way");
            RebuildRecords.adopt(c, a, o.node(), o.address(), audit);
            String schema = new String(backup.storeRows().getOrDefault(StoreCopy.SCHEMA_PART, new byte[0]), StandardCharsets.US_ASCII);
            say.accept("      the store's rows are back (schema version " + schema + "); node " + o.node() + " is now at " + o.address());
            Rebuild.lines(a, o.node()).forEach(say);
        } catch (SQLException e) {
            throw new InstallFailure("cannot load the state backup into the store at " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * Each node's agent as the new controller finds it at its recorded address: it answers (and keeps what it runs, the
     * controller pushed it nothing) or not yet (it is adopted when it answers; {@code mesh status} shows it).
     */
    void adopt() {
        SeatApi api = new SeatApi(seat.controllerUrl(), seat.controllerToken(),
                mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(o.tls().caCert())));
        List<NodeStatus> nodes = api.status();
        for (NodeStatus n : nodes) {
            if (n.node().name().equals(o.node())) {
                continue;
            }
            say.accept(n.agent() != null
                    ? "      adopted " + n.node().name() + " at " + n.node().address() + ": its " + n.agent().components().size()
                    + " components kept, nothing replaced"
                    : "      " + n.node().name() + " at " + n.node().address() + " does not answer (" + n.agentError()
                    + "): adopted when its agent answers ('mesh status')");
        }
    }
}
