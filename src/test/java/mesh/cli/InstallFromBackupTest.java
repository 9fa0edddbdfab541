package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import mesh.install.SeatState;
import mesh.trust.Entropy;
import mesh.trust.RecoveryKey;
import mesh.trust.StateContent;
import mesh.trust.StateSeal;
import mesh.wire.Build;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * InstallFromBackupTest: {@code mesh install --from-backup} refuses each bad input before any step runs, naming the
 * reason (a wrong passphrase, a truncated, altered, newer-format or newer-build artifact, a machine with a mesh, options
 * a rebuild takes none of, a --node other than the old seat's), and writes nothing: the state folder stays as it was.
 * The passphrase is in no output.
 */
class InstallFromBackupTest {

    private static final String PASSPHRASE = "correct horse battery staple";
    private static final Instant MADE = Instant.parse("2026-12-06T02:00:00Z");

    /** An old seat named {@code ace}: its CA (CN=mesh CA ace) and its other needed files. */
    private static Map<String, byte[]> seatParts(Path dir) throws Exception {
        Path old = dir.resolve("old");
        new mesh.trust.TlsDir(old.resolve("tls")).ensureCa("ace", MADE);
        for (String file : SeatState.FILES) {
            if (!Files.exists(old.resolve(file))) {
                Files.createDirectories(old.resolve(file).getParent());
                Files.writeString(old.resolve(file), "secret of " + file);
            }
        }
        Map<String, byte[]> parts = new LinkedHashMap<>(SeatState.parts(old));
        parts.put("store/schema", "15".getBytes(StandardCharsets.US_ASCII));
        return parts;
    }

    private static byte[] artifact(Path dir, int wire) throws Exception {
        RecoveryKey key = RecoveryKey.derive(PASSPHRASE.toCharArray(), new RecoveryKey.Kdf(Entropy.bytes(16), 64, 1, 1));
        return StateSeal.seal(key, Build.current().words(), wire, "sha256:ab", MADE, new StateContent(seatParts(dir)).encode());
    }

    private static Path write(Path dir, String name, byte[] bytes) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static CliRun install(Path dir, Path backup, String passphrase, String... more) throws Exception {
        Path pass = write(dir, "pass", passphrase.getBytes(StandardCharsets.UTF_8));
        String[] base = {"install", "--from-backup", backup.toString(), "--recovery-passphrase-file", pass.toString(),
                "--state-dir", dir.resolve("state").toString(), "--address", "127.0.0.1"};
        return CliRun.of(Stream.concat(Arrays.stream(base), Arrays.stream(more)).toArray(String[]::new));
    }

    private static void refused(CliRun run, Path dir, String... words) throws Exception {
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("install refused, nothing was changed"), run.err());
        for (String w : words) {
            assertTrue(run.err().contains(w), "'" + w + "' in: " + run.err());
        }
        assertFalse((run.out() + run.err()).contains(PASSPHRASE), "the passphrase is in no output");
        assertFalse(Files.exists(dir.resolve("state/install")), "nothing written");
        assertFalse(Files.exists(dir.resolve("state/tls")), "nothing written");
    }

    @Test
    void aWrongPassphraseIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path backup = write(dir, "b", artifact(dir, Build.current().wireLevel()));
        refused(install(dir, backup, "not the passphrase at all"), dir, "WRONG_PASSPHRASE", backup.toString());
    }

    @Test
    void aTruncatedArtifactIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        byte[] a = artifact(dir, Build.current().wireLevel());
        refused(install(dir, write(dir, "b", Arrays.copyOf(a, a.length - 100)), PASSPHRASE), dir, "TRUNCATED");
    }

    @Test
    void anAlteredArtifactIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        byte[] a = artifact(dir, Build.current().wireLevel());
        a[a.length - 40] ^= 1;
        refused(install(dir, write(dir, "b", a), PASSPHRASE), dir, "ALTERED");
    }

    @Test
    void aBackupOfANewerBuildOrFormatIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        refused(install(dir, write(dir, "b", artifact(dir, Build.current().wireLevel() + 1)), PASSPHRASE), dir, "NEWER_BUILD");
        String text = new String(artifact(dir, Build.current().wireLevel()), StandardCharsets.ISO_8859_1);
        byte[] newer = text.replace("format=1", "format=2").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer.wrap(newer, 10, 4).putInt(ByteBuffer.wrap(newer, 10, 4).getInt());
        refused(install(dir, write(dir, "c", newer), PASSPHRASE), dir, "NEWER_FORMAT");
    }

    @Test
    void aMachineThatHasAMeshIsRefused(@TempDir Path dir) throws Exception {
        Path backup = write(dir, "b", artifact(dir, Build.current().wireLevel()));
        Files.createDirectories(dir.resolve("state/tls"));
        Files.writeString(dir.resolve("state/tls/ca.key"), "a mesh of its own");
        CliRun run = install(dir, backup, PASSPHRASE);
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("install refused, nothing was changed") && run.err().contains("already has a mesh"), run.err());
        assertEquals("a mesh of its own", Files.readString(dir.resolve("state/tls/ca.key")));
        assertFalse(Files.exists(dir.resolve("state/install")), "nothing written");
    }

    @Test
    void joinOptionsAndANodeOtherThanTheOldSeatAreRefused(@TempDir Path dir) throws Exception {
        Path backup = write(dir, "b", artifact(dir, Build.current().wireLevel()));
        refused(install(dir, backup, PASSPHRASE, "--join", "https://10.0.0.1:7700"), dir, "--from-backup raises a seat");
        refused(install(dir, backup, PASSPHRASE, "--node", "bee"), dir, "--node bee", "ace");
    }

    @Test
    void aFileThatIsNotThereOrNoStateBackupIsRefused(@TempDir Path dir) throws Exception {
        refused(install(dir, dir.resolve("nowhere"), PASSPHRASE), dir, "cannot read the state backup");
        refused(install(dir, write(dir, "b", "PGDMP...".getBytes(StandardCharsets.US_ASCII)), PASSPHRASE), dir,
                "NOT_A_STATE_BACKUP");
    }
}
