package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.concurrent.Callable;
import mesh.install.InstallFailure;
import mesh.install.StateBackups;
import mesh.trust.StateSeal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** SeatBackupCommand makes a sealed state backup of the seat into a file ({@code mesh seat backup --to FILE}). */
@Command(name = "backup",
        mixinStandardHelpOptions = true,
        subcommands = SeatBackupListCommand.class,
        description = {"Make a sealed state backup of the seat: the store's rows and the seat's keys, in one file.",
            "Run it as root on the seat. It is sealed under the recovery passphrase ('mesh seat passphrase'), and "
                    + "'mesh install --from-backup' raises the mesh again from it on another machine (docs/rebuild.md). "
                    + "Keep the file off the seat: it is what is left when the seat is gone."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat backup --to /mnt/usb/mesh-state.backup", "  mesh seat backup list",
            "      the state backups made, newest first"})
public class SeatBackupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Option(names = "--to", paramLabel = "FILE", description = "the file the state backup is written to (0600)")
    Path to;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state on the seat (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Option(names = "--store-url", paramLabel = "JDBC", description = "the store, when the seat was installed with --store-url"
            + " (default: mesh-store on the seat's address)")
    String storeUrl;

    @Override
    public Integer call() {
        if (to == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required option: '--to=FILE' (or 'mesh seat backup list')");
        }
        byte[] artifact;
        try {
            artifact = StateBackups.ofSeat(stateDir.toAbsolutePath(), storeUrl, Instant.now());
        } catch (InstallFailure e) {
            throw new VerbFailure(e.getMessage());
        }
        Path file = to.toAbsolutePath();
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, artifact);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new VerbFailure("cannot write the state backup to " + file + ": " + e.getMessage());
        }
        try {
            StateBackups.record(stateDir.toAbsolutePath(), storeUrl, artifact, "file:" + file);
        } catch (InstallFailure e) {
            output.error(spec, "mesh: warning: " + e.getMessage() + " ('mesh status' does not know of it)");
        }
        StateSeal.Header h = StateSeal.header(artifact);
        output.line(spec, "state backup of mesh " + h.mesh() + " written to " + file + " (" + (artifact.length + 1023) / 1024
                + " KiB, made " + h.made() + "); it opens with the recovery passphrase alone: keep it off the seat");
        return ExitCodes.OK;
    }
}
