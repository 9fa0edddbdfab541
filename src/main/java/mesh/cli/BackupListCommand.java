package mesh.cli;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.wire.BackupView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the backups, newest first, of MODULE or of every module.", "For each: number, module, when it began, its state, "
                    + "its size, the bytes it sent to the registry (what was new), its manifest digest and its last verify.",
            "-o json: every field (docs/cli.md, backup list)."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh backup list",
            "  mesh backup list searxng -o json"})
public class BackupListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    /** The verb's {@code -o}, inherited from {@code mesh backup}: declared there once. */
    @picocli.CommandLine.ParentCommand
    BackupCommand parent;

    @Parameters(paramLabel = "MODULE", arity = "0..1", description = "only this module's backups")
    String module;

    @Override
    public Integer call() {
        ControllerClient controller = ControllerClient.fromEnvironment();
        List<BackupView> all = controller.api().backups(module);
        if (parent.format.json()) {
            output.json(spec, all);
            return ExitCodes.OK;
        }
        if (all.isEmpty()) {
            output.line(spec, module == null ? "no backups yet; 'mesh backup MODULE' makes one" : "module " + module
                    + " has no backup yet; 'mesh backup " + module + "' makes one");
            return ExitCodes.OK;
        }
        Instant now = Instant.now();
        output.table(spec, List.of("ID", "MODULE", "TIME", "STATE", "SIZE", "NEW", "MANIFEST", "VERIFIED"),
                all.stream().map(b -> BackupCommand.row(b, now)).toList());
        return ExitCodes.OK;
    }
}
