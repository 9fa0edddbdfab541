package mesh.host.backup;

/** BackupBroken is a backup, restore or verify that cannot go on; its message names the module, volume or file and why. */
public final class BackupBroken extends RuntimeException {

    public BackupBroken(String message) {
        super(message);
    }

    public BackupBroken(String message, Throwable cause) {
        super(message, cause);
    }
}
