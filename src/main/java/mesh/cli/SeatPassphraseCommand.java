package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import mesh.trust.RecoveryKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** SeatPassphraseCommand sets the recovery passphrase on the seat after the install ({@code mesh seat passphrase}). */
@Command(name = "passphrase",
        mixinStandardHelpOptions = true,
        description = {"Set or change the recovery passphrase that seals the state backups.",
            "Run it as root on the seat. The passphrase is read from stdin (or typed twice on a terminal), never from the command line. The seat keeps "
                    + "only the key derived from it (Argon2id) in STATE-DIR/install/recovery.key, 0600: the passphrase "
                    + "itself is written nowhere, so keep it off the seat. State backups made before a change still "
                    + "open with the passphrase they were sealed under."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat passphrase < /root/recovery-passphrase",
            "  mesh seat passphrase",
            "      asks for it twice on the terminal"})
public class SeatPassphraseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state on the seat (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Override
    public Integer call() {
        Path install = stateDir.toAbsolutePath().resolve("install");
        if (!Files.isRegularFile(install.resolve("secrets.key"))) {
            throw new VerbFailure("this machine is not a mesh's seat (" + install.resolve("secrets.key")
                    + " is missing): set the passphrase on the seat, or give its --state-dir");
        }
        RecoveryKey key = System.console() != null ? RecoveryPassphrase.fromTerminal() : RecoveryPassphrase.fromStream(System.in);
        if (key == null) {
            throw new VerbFailure("no recovery passphrase was typed: nothing was changed");
        }
        Path file = install.resolve(RecoveryKey.FILE);
        boolean had = Files.isRegularFile(file);
        try {
            key.write(file);
        } catch (IOException e) {
            throw new VerbFailure("cannot write the recovery key " + file + ": " + e.getMessage());
        }
        output.line(spec, "the recovery passphrase is " + (had ? "changed" : "set") + ": the seat keeps the key derived from it ("
                + file + "), never the passphrase; the next state backup is sealed under it");
        return ExitCodes.OK;
    }
}
