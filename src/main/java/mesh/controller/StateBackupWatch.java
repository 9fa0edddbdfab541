package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import mesh.bundle.HttpRegistry;
import mesh.install.JoinedState;
import mesh.install.StateBackupFolder;
import mesh.install.StateBackupRegistry;
import mesh.install.StateBackups;
import mesh.plan.Rebuild;
import mesh.plan.StateBackupSchedule;
import mesh.store.MeshStore;
import mesh.store.StateBackupRecords;
import mesh.store.StoreCopy;
import mesh.trust.RecoveryKey;
import org.jboss.logging.Logger;

/**
 * StateBackupWatch is the controller making the seat's state backup on its own (docs/rebuild.md): every
 * {@link #LOOK_EVERY} it asks {@link StateBackupSchedule#due} (none yet, a day old, a key verb since), and when one is
 * due and a recovery passphrase is set (its key, {@code install/recovery.key}, beside the secrets key file it is given;
 * the seat's state folder is that file's grandparent) it seals the store's rows and the seat's files into
 * {@code STATE-DIR/state-backups/} ({@link StateBackupFolder}, newest {@link StateBackupSchedule#KEEP} kept) and records
 * it for {@code mesh status}. One virtual thread; a failed pass is logged and tried again at the next look.
 */
@ApplicationScoped
public class StateBackupWatch {

    private static final Logger LOG = Logger.getLogger("mesh.controller");
    static final Duration LOOK_EVERY = Duration.ofMinutes(5);

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    private final Periodic loop = new Periodic("state-backup-watch", LOOK_EVERY, true,
            () -> makeIfDue(Instant.now()).ifPresent(f -> LOG.infof("state backup written to %s", f)), LOG);

    /** Starts the loop (once); its first look is one {@link #LOOK_EVERY} after the start. */
    public void start() {
        loop.start();
    }

    /** Makes the state backup if one is due and can be sealed; the file written, or empty. */
    Optional<Path> makeIfDue(Instant at) {
        Instant now = at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);   // as its file is named
        Path secretsKey = controller.settings() == null ? null : controller.settings().secretsKeyFile();
        if (secretsKey == null || !Files.isRegularFile(secretsKey.resolveSibling(RecoveryKey.FILE))) {
            return Optional.empty();   // mesh status says the mesh cannot be rebuilt
        }
        Instant newest = store.inTransaction(c -> StateBackupRecords.newest(c, 1)).stream()
                .map(StateBackupRecords.Row::made).findFirst().orElse(null);
        StateBackupSchedule.KeyChange keys = store.inTransaction(c -> StateBackupRecords.lastKeyChange(c, StateBackupSchedule.KEY_VERBS));
        Optional<String> why = StateBackupSchedule.due(newest, keys, now);
        if (why.isEmpty()) {
            return Optional.empty();
        }
        Path stateDir = secretsKey.toAbsolutePath().getParent().getParent();
        try {
            Map<String, byte[]> rows = store.withConnection(StoreCopy::copyOut);
            RecoveryKey key = RecoveryKey.read(secretsKey.resolveSibling(RecoveryKey.FILE));
            String mesh = JoinedState.read(stateDir).caHash();
            byte[] artifact = StateBackups.make(stateDir, rows, key, mesh, now);
            Path file = StateBackupFolder.write(stateDir.resolve(StateBackupFolder.NAME), artifact, now, StateBackupSchedule.KEEP);
            store.inTransaction(c -> {
                StateBackupRecords.record(c, new StateBackupRecords.Row(now, "file:" + file, artifact.length, mesh));
                return null;
            });
            LOG.infof("state backup made: %s", why.get());
            copyOffSeat(artifact, now, mesh);
            return Optional.of(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot make the state backup (" + why.get() + ") in " + stateDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sends a copy of the scheduled state backup to the registry the operator's newest off-seat one went to ({@code mesh
     * seat backup --to-node}): the seat's own folder is lost with its disk. A copy that fails is logged and tried at the
     * next state backup; the one on the seat stands.
     */
    private void copyOffSeat(byte[] artifact, Instant now, String mesh) {
        Optional<String> place = StateBackupSchedule.offSeat(store.inTransaction(c -> StateBackupRecords.newest(c, 50)).stream()
                .map(StateBackupRecords.Row::place).toList());
        if (place.isEmpty()) {
            return;
        }
        String node = StateBackupSchedule.offSeatNode(place.get());
        try {
            String ref = StateBackupRegistry.push(new HttpRegistry(Rebuild.source(place.get()).registry()), artifact, now);
            store.inTransaction(c -> {
                StateBackupRecords.record(c, new StateBackupRecords.Row(now, "node:" + node + " " + ref, artifact.length, mesh));
                return null;
            });
            LOG.infof("state backup copied to node %s's registry: %s", node, ref);
        } catch (RuntimeException e) {
            LOG.warnf("state backup: the copy to node %s's registry failed (tried again at the next one): %s", node, e.getMessage());
        }
    }
}
