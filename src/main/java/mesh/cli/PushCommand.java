package mesh.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.wire.PushReport;
import mesh.wire.PushRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "push", mixinStandardHelpOptions = true,
        description = {"Plan every node and send each one whose declaration changed.",
            "Nodes not named but left behind by earlier pushes are sent too. A plan that fails for any node sends "
                    + "nothing. A push that would replace and remove more containers, counted together, than the budget "
                    + "(MESH_PUSH_BUDGET of the controller, default 10) stops unless --yes.",
            "A push that would remove one of the mesh's own modules where it runs (mesh-store, mesh-registry, "
                    + "mesh-controller, an edge serving routes) is refused; move one with 'mesh take'.",
            "Exit 1 if any node could not be reached; it is sent at the next push.",
            "With --wait, it then waits until every node sent to has applied its declaration and runs all of it, "
                    + "showing each node's state as it changes; exit 1 if that does not happen in time."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh push --dry-run",
            "      what each node would get, and what it replaces",
            "  mesh push --wait",
            "      send, then wait until every node runs all of its declaration"})
public class PushCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(paramLabel = "NODE", arity = "0..*", description = "the nodes meant (others that differ are sent too)")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--dry-run", description = "show, per node and component, what the push would create, replace and remove; send nothing")
    boolean dryRun;

    @Option(names = "--yes", description = "go ahead past the budget, counting replacements and removals together")
    boolean yes;

    @Option(names = "--force-remove-mesh-module", paramLabel = "MODULE",
            description = "let this push remove this mesh module (repeatable; never the controller, nor its own store)")
    List<String> forced = new ArrayList<>();

    @Option(names = "--wait", description = "after sending, wait until the nodes sent to have converged")
    boolean waitForNodes;

    @Option(names = WaitTimeout.NAME, paramLabel = "DURATION",
            description = "how long --wait waits, e.g. 90s, 5m or 1h (a bare number is seconds; default 5m, at most 24h); only with --wait")
    Duration timeout;

    @Option(names = WaitTimeout.OLD_NAME, paramLabel = "DURATION", hidden = true, description = "the old name of --timeout")
    Duration waitTimeout;

    /** How long --wait waits when --timeout is not given. */
    static final Duration WAIT = Duration.ofMinutes(5);

    @Override
    public Integer call() {
        Duration waitFor = checkWait(spec, waitForNodes, dryRun, timeout, waitTimeout);
        ControllerClient controller = ControllerClient.fromEnvironment();
        PushReport report = controller.api().push(new PushRequest(nodes, dryRun, yes,
                forced.isEmpty() ? null : forced));
        return showAndWait(spec, output, format, controller, report, waitForNodes, waitFor);
    }

    /**
     * The checks of --wait, --timeout and --dry-run, before anything is asked ({@code rollback} has the same options);
     * how long --wait waits.
     */
    static Duration checkWait(CommandSpec spec, boolean waitForNodes, boolean dryRun, Duration timeout, Duration oldName) {
        Duration waitFor = WaitTimeout.of(spec, timeout, oldName, waitForNodes, WAIT);
        if (waitForNodes && dryRun) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--wait and --dry-run exclude each other: a dry run sends nothing to wait for");
        }
        return waitFor;
    }

    /**
     * Shows a push's (or a rollback's) report, then with --wait waits until the nodes it sent to have
     * converged; the verb's exit code.
     */
    static int showAndWait(CommandSpec spec, Output output, OutputOption format, ControllerClient controller,
                           PushReport report, boolean waitForNodes, Duration timeout) {
        if (format.json()) {
            output.json(spec, report);
        } else {
            print(output, spec, report);
        }
        if (waitForNodes && !report.dryRun()) {
            // with -o json stdout holds the report alone; progress goes nowhere, the exit code says it
            ConvergenceWait.Result waited = new ConvergenceWait(controller,
                    line -> {
                        if (!format.json()) {
                            output.line(spec, line);
                        }
                    }).await(report, timeout);
            if (!waited.converged()) {
                throw new VerbFailure(ConvergenceWait.describe(waited, timeout));
            }
        }
        return report.complete() ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** Prints a push's report as text: its notes, each node's plan and counts, the totals ({@code rollback} prints the same). */
    static void print(Output output, CommandSpec spec, PushReport report) {
        report.notes().forEach(n -> output.line(spec, n));
        for (PushReport.NodeResult n : report.nodes()) {
            switch (n.outcome()) {
                case UNCHANGED -> output.line(spec, n.node() + ": unchanged");
                case BEHIND -> output.error(spec, n.node() + (report.dryRun() ? ": cannot preview: "
                        : ": behind (it is sent at the next push): ") + n.error());
                default -> {
                    String verb = n.outcome() == PushReport.Outcome.SENT ? "sent generation " : "would send generation ";
                    output.line(spec, n.node() + ": " + verb + n.generation() + (n.plan() == null ? "" : " — " + n.plan().summary()));
                    if (n.plan() != null) {
                        PlanLines.of(n.plan()).forEach(line -> output.line(spec, line));
                        output.line(spec, PlanLines.node(n, report.dryRun()));
                    }
                }
            }
        }
        output.line(spec, PlanLines.total(report));
    }
}
