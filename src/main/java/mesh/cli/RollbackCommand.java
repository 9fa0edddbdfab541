package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import mesh.wire.KeptPush;
import mesh.wire.PushReport;
import mesh.wire.RollbackRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = {"Return the whole mesh to what an earlier push planned.",
            "The push's catalogue and placements are planned on today's nodes and addresses, previewed and sent as 'mesh push' is (the same budget, the same refusals for the mesh's "
                    + "own modules), and stored again, so the next push keeps it.",
            "PUSH is the push's id, as 'mesh audit', 'mesh host history' (\"push 42\") and --list show it; the "
                    + "controller keeps the inputs of the last 50 pushes. A module placed then on a node removed since is not "
                    + "placed there; a module taken today on another node stays there, with its data.",
            "Data is never rolled back: volumes stay as they are, and the preview names each component whose volumes "
                    + "an older image would meet. A rollback is a push of its own, which can be rolled back to.",
            "Exit 1 for a push whose input is not kept, and if any node could not be reached."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh rollback --list",
            "      the pushes that can be rolled back to",
            "  mesh rollback 42 --dry-run",
            "      what going back to push 42 would replace, and the volumes an older image would meet",
            "  mesh rollback 42 --wait"})
public class RollbackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(paramLabel = "PUSH", arity = "0..1", description = "the id of the push to roll back to")
    String push;

    @Option(names = "--list", description = "list the pushes that can be rolled back to, newest first")
    boolean list;

    @Option(names = "--dry-run", description = "show, per node and component, what the rollback would create, replace and remove; change nothing")
    boolean dryRun;

    @Option(names = "--yes", description = "go ahead even past the push budget (replacements and removals together)")
    boolean yes;

    @Option(names = "--force-remove-mesh-module", paramLabel = "MODULE",
            description = "let this rollback remove this mesh module (repeatable; as for 'mesh push')")
    List<String> forced = new ArrayList<>();

    @Option(names = "--wait", description = "after sending, wait until the nodes sent to have converged (as 'mesh push --wait')")
    boolean waitForNodes;

    @Option(names = WaitTimeout.NAME, paramLabel = "DURATION",
            description = "how long --wait waits, e.g. 90s, 5m or 1h (a bare number is seconds; default 5m, at most 24h); only with --wait")
    java.time.Duration timeout;

    @Option(names = WaitTimeout.OLD_NAME, paramLabel = "DURATION", hidden = true, description = "the old name of --timeout")
    java.time.Duration waitTimeout;

    @Override
    public Integer call() {
        if (list) {
            if (push != null || dryRun || yes || waitForNodes || !forced.isEmpty() || timeout != null || waitTimeout != null) {
                throw new ParameterException(spec.commandLine(), "--list takes no PUSH and no other option");
            }
            ControllerClient controller = ControllerClient.fromEnvironment();
            List<KeptPush> kept = controller.api().pushes();
            if (format.json()) {
                output.json(spec, kept);
            } else {
                output.table(spec, List.of("PUSH", "TIME", "TOKEN", "MODULES", "CHANGE"), kept.stream().map(k -> List.of(
                        Long.toString(k.push()), k.at(), k.token(), Integer.toString(k.modules()),
                        Objects.toString(k.change(), ""))).toList());
            }
            return ExitCodes.OK;
        }
        if (push == null) {
            throw new ParameterException(spec.commandLine(), "give the PUSH to roll back to ('mesh rollback --list' shows them), or --list");
        }
        if (!push.matches("[1-9][0-9]{0,17}")) {
            throw new ParameterException(spec.commandLine(), "PUSH is a push's id, a number as 'mesh rollback --list' shows it;"
                    + " got '" + push + "'");
        }
        java.time.Duration waitFor = PushCommand.checkWait(spec, waitForNodes, dryRun, timeout, waitTimeout);
        ControllerClient controller = ControllerClient.fromEnvironment();
        PushReport report = controller.api().rollback(new RollbackRequest(Long.parseLong(push), dryRun, yes,
                forced.isEmpty() ? null : forced));
        return PushCommand.showAndWait(spec, output, format, controller, report, waitForNodes, waitFor);
    }
}
