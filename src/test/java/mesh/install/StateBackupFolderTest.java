package mesh.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** StateBackupFolderTest: the controller's state backup files, 0600 in a 0700 folder, the newest N kept, others untouched. */
class StateBackupFolderTest {

    @Test
    void theNewestAreKeptAndAnOperatorsFileStays(@TempDir Path dir) throws Exception {
        Path folder = dir.resolve(StateBackupFolder.NAME);
        Instant t = Instant.parse("2026-12-05T10:00:03Z");
        Path first = StateBackupFolder.write(folder, new byte[] {1}, t, 2);
        Files.write(folder.resolve("operator-copy.backup"), new byte[] {9});
        StateBackupFolder.write(folder, new byte[] {2}, t.plusSeconds(86400), 2);
        Path third = StateBackupFolder.write(folder, new byte[] {3}, t.plusSeconds(2 * 86400), 2);
        List<String> names;
        try (Stream<Path> s = Files.list(folder)) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("mesh-state-20261206T100003Z.backup", "mesh-state-20261207T100003Z.backup", "operator-copy.backup"), names);
        assertEquals(false, Files.exists(first));
        assertArrayEquals(new byte[] {3}, Files.readAllBytes(third));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(third)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
    }
}
