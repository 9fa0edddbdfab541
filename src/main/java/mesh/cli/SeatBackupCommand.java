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
        footer = {"  mesh seat backup --to /mnt/usb/mesh-state.backup", "  mesh seat backup --to-node n3",
            "      into the registry on n3 (mesh-registry taken there)", "  mesh seat backup list",
            "      the state backups made, newest first"})
public class SeatBackupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Option(names = "--to-node", paramLabel = "NODE", description = "also (or instead) push it to the registry on this node"
            + " (http://ADDRESS:5000, where mesh-registry runs), never the seat's own")
    String toNode;

    @Option(names = "--to", paramLabel = "FILE", description = "the file the state backup is written to (0600)")
    Path to;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state on the seat (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Option(names = "--store-url", paramLabel = "JDBC", description = "the store, when the seat was installed with --store-url"
            + " (default: mesh-store on the seat's address)")
    String storeUrl;

    @Override
    public Integer call() {
        if (to == null && toNode == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required option: '--to=FILE' or '--to-node=NODE' (or 'mesh seat backup list')");
        }
        Path dir = stateDir.toAbsolutePath();
        byte[] artifact;
        try {
            artifact = StateBackups.ofSeat(dir, storeUrl, Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        } catch (InstallFailure e) {
            throw new VerbFailure(e.getMessage());
        }
        StateSeal.Header h = StateSeal.header(artifact);
        String size = (artifact.length + 1023) / 1024 + " KiB, made " + h.made();
        if (to != null) {
            Path file = to.toAbsolutePath();
            write(file, artifact);
            record(dir, artifact, "file:" + file);
            output.line(spec, "state backup of mesh " + h.mesh() + " written to " + file + " (" + size
                    + "); it opens with the recovery passphrase alone: keep it off the seat");
        }
        if (toNode != null) {
            String place;
            try {
                place = StateBackups.pushToNode(dir, storeUrl, toNode, artifact);
            } catch (InstallFailure e) {
                throw new VerbFailure(e.getMessage());
            }
            record(dir, artifact, place);
            output.line(spec, "state backup of mesh " + h.mesh() + " pushed to " + place + " (" + size
                    + "); it opens with the recovery passphrase alone");
        }
        return ExitCodes.OK;
    }

    private static void write(Path file, byte[] artifact) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, artifact);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new VerbFailure("cannot write the state backup to " + file + ": " + e.getMessage());
        }
    }

    private void record(Path dir, byte[] artifact, String place) {
        try {
            StateBackups.record(dir, storeUrl, artifact, place);
        } catch (InstallFailure e) {
            output.error(spec, "mesh: warning: " + e.getMessage() + " ('mesh status' does not know of it)");
        }
    }
}
