package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import mesh.plan.StateBackupSchedule;

/**
 * StateBackupFolder is where the controller keeps the state backups it makes on its schedule: the seat's
 * {@code STATE-DIR/state-backups/} (0700), one file each ({@link StateBackupSchedule#fileName}, 0600, written whole),
 * the newest {@code keep} kept; a file of any other name there is never touched.
 */
public final class StateBackupFolder {

    public static final String NAME = "state-backups";

    private StateBackupFolder() {
    }

    /** Writes {@code artifact} made at {@code made} into {@code folder}, then removes its own files past the newest {@code keep}. */
    public static Path write(Path folder, byte[] artifact, Instant made, int keep) throws IOException {
        if (!Files.isDirectory(folder)) {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Path file = folder.resolve(StateBackupSchedule.fileName(made));
        Path tmp = folder.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, artifact);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        List<String> names;
        try (Stream<Path> s = Files.list(folder)) {
            names = s.map(p -> p.getFileName().toString()).toList();
        }
        for (String old : StateBackupSchedule.pruned(names, keep)) {
            Files.deleteIfExists(folder.resolve(old));
        }
        return file;
    }
}
