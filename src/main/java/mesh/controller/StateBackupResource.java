package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.file.Files;
import mesh.store.MeshStore;
import mesh.store.StateBackupRecords;
import mesh.wire.StateBackupsView;

/**
 * StateBackupResource is what {@code mesh status} says of the seat's state backups (docs/rebuild.md): whether a
 * recovery passphrase is set (its derived key, {@code install/recovery.key}, beside the secrets key file the controller
 * is given) and the newest state backups {@code mesh seat backup} recorded in the store.
 */
@Path("/v1/mesh/state-backups")
@Produces(MediaType.APPLICATION_JSON)
public class StateBackupResource {

    /** How many of the newest state backups are answered. */
    static final int NEWEST = 10;

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @GET
    public StateBackupsView stateBackups() {
        java.nio.file.Path secretsKey = controller.settings() == null ? null : controller.settings().secretsKeyFile();
        Boolean passphraseSet = secretsKey == null ? null
                : Files.isRegularFile(secretsKey.resolveSibling(mesh.trust.RecoveryKey.FILE));
        return new StateBackupsView(passphraseSet, store.inTransaction(c -> StateBackupRecords.newest(c, NEWEST)).stream()
                .map(r -> new StateBackupsView.Entry(r.made().toString(), r.place(), r.bytes())).toList());
    }
}
