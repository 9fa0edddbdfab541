package mesh.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.model.OperationState;
import mesh.wire.DrainRequest;
import mesh.wire.DrainView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "drain", mixinStandardHelpOptions = true,
        description = {"Empty NODE onto the other nodes: cordon it, then move every module off it with its data, by takes, K at a time (docs/drain.md).",
            "Each module goes to a target a placement rule chooses: one of the --to nodes (or any node not cordoned), with room on disk for its data and every port it publishes free. The mesh's own modules come last; the controller, the store and the edge are named and left. A module whose take fails is rolled back by its take, named with its reason, and the drain goes on with the others.",
            "The drain runs in the controller: it goes on when this command exits and after the controller restarts; 'mesh drain --status NODE' shows it. A second drain of NODE is refused while one runs; 'mesh drain NODE' carries on one whose runner let go.",
            "Exit 0 when every module moved; 1 when any failed or was left."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh drain n2 --to n3 --to n4 --parallel 2 --dry-run",
            "      print where each module would go, move nothing",
            "  mesh drain n2 --to n3 --to n4 --parallel 2",
            "  mesh drain --status n2"})
public class DrainCommand implements Callable<Integer> {

    static final Duration POLL = Duration.ofSeconds(1);

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(paramLabel = "NODE", arity = "0..1", description = "the node to empty (with --status: only its drain)")
    String node;

    @Option(names = "--to", paramLabel = "NODE", description = "a node the modules may go to (repeat it); default: any node not cordoned")
    List<String> to;

    @Option(names = "--parallel", paramLabel = "K", defaultValue = "1", description = "how many takes run at once, 1 to 8 (default 1)")
    int parallel;

    @Option(names = "--deadline", paramLabel = "D", description = "no take begins after D (30m, 2h): the modules not begun by then are left")
    String deadline;

    @Option(names = "--dry-run", description = "print the placement as a table, cordon and move nothing")
    boolean dryRun;

    @Option(names = "--status", description = "show the drains (or NODE's) as they stand, and return")
    boolean status;

    @Override
    public Integer call() {
        ControllerClient controller = ControllerClient.fromEnvironment();
        if (status) {
            List<DrainView> drains = node == null ? controller.api().drains(false) : List.of(controller.api().drain(node));
            if (format.json()) {
                output.json(spec, drains);
            } else {
                drains.forEach(d -> DrainLines.summary(d).forEach(l -> output.line(spec, l)));
            }
            return ExitCodes.OK;
        }
        if (node == null) {
            throw new ParameterException(spec.commandLine(), "give the node to drain: mesh drain NODE");
        }
        DrainView d = controller.api().drain(new DrainRequest(node, to, parallel, deadline, dryRun ? true : null));
        if (dryRun) {
            if (format.json()) {
                output.json(spec, d);
            } else {
                output.line(spec, DrainLines.head(d) + ": dry run, nothing changed; the placement:");
                output.table(spec, DrainLines.HEADERS, DrainLines.rows(d));
            }
            return ExitCodes.OK;
        }
        DrainView end = follow(controller, d);
        if (format.json()) {
            output.json(spec, end);
        } else {
            DrainLines.summary(end).forEach(l -> output.line(spec, l));
        }
        boolean all = end.modules().stream().allMatch(m -> m.state() == mesh.model.DrainModuleState.MOVED);
        return end.state() == OperationState.DONE && all ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** Follows the drain until it ends, or waits with no runner, printing what changed. */
    private DrainView follow(ControllerClient controller, DrainView first) {
        boolean people = !format.json();
        if (people) {
            output.line(spec, DrainLines.head(first));
        }
        var seen = new Object() {
            DrainView d;
        };
        // no deadline: the drain ends in the controller, or waits there for 'mesh drain' to carry it on; its first look
        // is the controller's view now (the answer that started it may predate its runner)
        return Follow.follow(controller.api().drain(first.node()), () -> controller.api().drain(first.node()), POLL, null, d -> {
            if (people) {
                DrainLines.since(seen.d, d).forEach(l -> output.line(spec, l));
            }
            seen.d = d;
        }, d -> d.state() != OperationState.RUNNING || !d.active(),
                "the drain goes on in the controller ('mesh drain --status " + first.node() + "' shows it)").last();
    }
}
