package mesh.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import mesh.install.Uninstall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "uninstall",
        mixinStandardHelpOptions = true,
        description = {"Take mesh off this machine, as root.", "It stops and removes the host agent (its unit, or the detached "
                    + "process), the processes it supervises, the mesh's containers on this node and its state.",
            "Volumes and the processes' data are kept, and listed, unless --delete-data."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh uninstall",
            "      volumes and data are kept, and listed",
            "  mesh uninstall --delete-data"})
public class UninstallCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Option(names = "--delete-data", description = "also delete the mesh's volumes and the processes' data on this node")
    boolean deleteData;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "as given to mesh install (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Option(names = "--config-dir", paramLabel = "DIR", description = "as given to mesh install (default /etc/mesh)")
    Path configDir = Path.of("/etc/mesh");

    @Override
    public Integer call() {
        Path env = configDir.resolve("host.env");
        Path kept = Uninstall.keptNodeFile(stateDir.toAbsolutePath());
        Map<String, String> settings = Files.isRegularFile(env) ? ConfigFile.read(env)
                : Files.isRegularFile(kept) ? ConfigFile.read(kept) : Map.of();
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        java.util.function.Consumer<String> say = line -> output.error(spec, line);
        Uninstall.Report report;
        try {
            report = new Uninstall(stateDir.toAbsolutePath(), configDir.toAbsolutePath(), Path.of(home), settings, say).run(deleteData);
        } catch (RuntimeException e) {
            throw new VerbFailure("uninstall stopped: " + e.getMessage());
        }
        if (format.json()) {
            output.json(spec, report);
        } else {
            report.removed().forEach(r -> output.line(spec, "removed " + r));
            report.kept().forEach(k -> output.line(spec, "kept " + k + " (mesh uninstall --delete-data deletes it)"));
        }
        return ExitCodes.OK;
    }
}
