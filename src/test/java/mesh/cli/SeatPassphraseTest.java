package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import mesh.trust.RecoveryKey;
import mesh.trust.StateSeal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SeatPassphraseTest: {@code mesh seat passphrase} keeps the derived key on the seat, never the passphrase. */
class SeatPassphraseTest {

    private static final String PASSPHRASE = "a long recovery passphrase";

    private static CliRun withStdin(String stdin, String... args) {
        InputStream before = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return CliRun.of(args);
        } finally {
            System.setIn(before);
        }
    }

    @Test
    void theSeatKeepsTheDerivedKeyWhichSealsWhatThePassphraseOpens(@TempDir Path state) throws Exception {
        Files.createDirectories(state.resolve("install"));
        Files.writeString(state.resolve("install/secrets.key"), "x\n");
        CliRun run = withStdin(PASSPHRASE + "\n", "seat", "passphrase", "--state-dir", state.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("the recovery passphrase is set"), run.out());
        Path file = state.resolve("install").resolve(RecoveryKey.FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(Files.readString(file).contains(PASSPHRASE), "the passphrase is never written");
        assertFalse(run.out().contains(PASSPHRASE) || run.err().contains(PASSPHRASE));

        byte[] artifact = StateSeal.seal(RecoveryKey.read(file), "0.1.0", 1, "m", Instant.EPOCH, new byte[] {7});
        assertArrayEquals(new byte[] {7}, StateSeal.open(artifact, PASSPHRASE.toCharArray(), 1).content());

        CliRun again = withStdin("another long passphrase", "seat", "passphrase", "--state-dir", state.toString());
        assertTrue(again.out().contains("the recovery passphrase is changed"), again.out());
    }

    @Test
    void aShortPassphraseOrAMachineThatIsNoSeatIsRefusedChangingNothing(@TempDir Path state) throws Exception {
        CliRun noSeat = withStdin(PASSPHRASE, "seat", "passphrase", "--state-dir", state.toString());
        assertEquals(1, noSeat.exit());
        assertTrue(noSeat.err().contains("not a mesh's seat"), noSeat.err());

        Files.createDirectories(state.resolve("install"));
        Files.writeString(state.resolve("install/secrets.key"), "x\n");
        CliRun shortOne = withStdin("too short\n", "seat", "passphrase", "--state-dir", state.toString());
        assertEquals(1, shortOne.exit());
        assertTrue(shortOne.err().contains("at least 12 characters"), shortOne.err());
        assertFalse(Files.exists(state.resolve("install").resolve(RecoveryKey.FILE)));
    }

    @Test
    void aJoiningNodeRefusesARecoveryPassphraseAndAShortOneRefusesTheInstall(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("p"), PASSPHRASE);
        CliRun join = CliRun.of("install", "--join", "https://10.77.0.11:7700", "--token", "t", "--node", "bee",
                "--address", "10.77.0.12", "--ca-hash", "sha256:" + "ab".repeat(32), "--state-dir", dir.resolve("s").toString(),
                "--recovery-passphrase-file", file.toString());
        assertEquals(1, join.exit());
        assertTrue(join.err().contains("--recovery-passphrase-file: only the seat keeps a recovery key"), join.err());
        assertFalse(Files.exists(dir.resolve("s")), "nothing was changed");
    }

    @Test
    void noVerbTakesThePassphraseItselfOnTheCommandLine() {
        picocli.CommandLine tree = MeshCommandLine.create(picocli.CommandLine.defaultFactory());
        List<String> taking = new java.util.ArrayList<>();
        java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(List.of(tree));
        while (!todo.isEmpty()) {
            picocli.CommandLine cmd = todo.pop();
            todo.addAll(cmd.getSubcommands().values());
            cmd.getCommandSpec().options().stream().map(o -> o.longestName())
                    .filter(n -> n.contains("passphrase") && !n.endsWith("-file"))
                    .forEach(n -> taking.add(cmd.getCommandName() + " " + n));
            cmd.getCommandSpec().positionalParameters().stream().filter(p -> p.paramLabel().toLowerCase().contains("passphrase"))
                    .forEach(p -> taking.add(cmd.getCommandName() + " " + p.paramLabel()));
        }
        assertEquals(List.of(), taking, "a passphrase on the command line stays in ps and the shell's history");
    }
}
