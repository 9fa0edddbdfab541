package mesh.host.backup;

/** BackupBroken is a backup, restore or verify that cannot go on; its message names the module, volume or file and why. */
public final class BackupBroken extends RuntimeException {

    public BackupBroken(String message) {
        super(message);
    }

    public BackupBroken(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Stops a restore whose file {@code what} (its manifest entry {@code e}) came out of the registry as another content:
     * {@code n} bytes hashed into {@code sha}, not the manifest's size and sha256.
     */
    static void unlessTheBackups(String what, java.security.MessageDigest sha, long n, mesh.model.VolumeManifest.Entry e) {
        String found = java.util.HexFormat.of().formatHex(sha.digest());
        if (n != e.size() || !found.equals(e.sha256())) {
            throw new BackupBroken(what + ": its content in the registry is not the backup's (sha256 "
                    + BackupRestore.short12(found) + ", " + n + " bytes; the manifest says "
                    + BackupRestore.short12(e.sha256()) + ", " + e.size() + " bytes)");
        }
    }
}
