package mesh.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.install.InstallFailure;
import mesh.install.StateBackups;
import mesh.store.StateBackupRecords;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** SeatBackupListCommand lists the state backups the store recorded ({@code mesh seat backup list}). */
@Command(name = "list",
        mixinStandardHelpOptions = true,
        description = {"List the seat's state backups the store recorded, newest first.",
            "Run it on the seat. Each state backup 'mesh seat backup' made: when, where it was written, its size and "
                    + "the mesh it is of. A file moved or deleted since is still listed at the place it was written to."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat backup list", "  mesh seat backup list -o json"})
public class SeatBackupListCommand implements Callable<Integer> {

    /** Entry is one state backup as {@code -o json} shows it. */
    public record Entry(String made, String place, long bytes, String mesh) {
    }

    /** How many of the newest are listed. */
    static final int NEWEST = 100;

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state on the seat (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Option(names = "--store-url", paramLabel = "JDBC", description = "the store, when the seat was installed with --store-url"
            + " (default: mesh-store on the seat's address)")
    String storeUrl;

    @Override
    public Integer call() {
        List<StateBackupRecords.Row> rows;
        try {
            rows = StateBackups.recorded(stateDir.toAbsolutePath(), storeUrl, NEWEST);
        } catch (InstallFailure e) {
            throw new VerbFailure(e.getMessage());
        }
        if (format.json()) {
            output.json(spec, entries(rows));
        } else {
            Instant now = Instant.now();
            output.table(spec, List.of("MADE", "PLACE", "SIZE", "MESH"), entries(rows).stream()
                    .map(e -> Arrays.asList(Times.when(e.made(), now), e.place(), (e.bytes() + 1023) / 1024 + " KiB", e.mesh()))
                    .toList());
        }
        return ExitCodes.OK;
    }

    static List<Entry> entries(List<StateBackupRecords.Row> rows) {
        return rows.stream().map(r -> new Entry(r.made().toString(), r.place(), r.bytes(), r.mesh())).toList();
    }
}
