package mesh.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.plan.UpgradePlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * UpgradeCommand is {@code mesh upgrade}: the mesh moved onto the build that runs the verb, node by node
 * ({@link UpgradePlan} decides, {@link UpgradeRun} carries it out; docs/upgrade.md).
 */
@Command(name = "upgrade", mixinStandardHelpOptions = true,
        description = {"Move the mesh onto this build, node by node (docs/upgrade.md).",
            "This build is the mesh you run this with.",
            "Publishes this build to the artifact store as a bundle, then for each node whose agent runs another "
                    + "build (joined nodes by name, the seat last): runs 'mesh host upgrade-self' there as a one-off process "
                    + "(module mesh-upgrade-NODE), which puts the new build beside the old and restarts the agent; waits until "
                    + "the agent answers on this build, converged, with every container and process as before (none replaced "
                    + "or restarted), and removes the one-off.",
            "Then the controller is moved to this build's bundle.",
            "Stops at the first node that does not come back so, naming it; the nodes after it are untouched.",
            "To go back, run 'mesh upgrade' with the old build. Nodes already on this build are skipped, so an "
                    + "upgrade that stopped is carried on by running it again. Refused while changes wait to be pushed.",
            "Exit 0 when every part moved; 1 when it stopped or was refused."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh upgrade --dry-run",
            "      which nodes would move, in which order",
            "  mesh upgrade",
            "      move every node, then the controller, to the build of this mesh executable"})
public class UpgradeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Option(names = "--node", paramLabel = "NAME", description = "move only this node's agent (repeatable); the controller is left as it is")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--dry-run", description = "say what would move, in which order; change nothing")
    boolean dryRun;

    @Option(names = WaitTimeout.NAME, paramLabel = "DURATION", description = "how long each node's agent (and the controller)"
            + " has to come back on this build, e.g. 90s, 5m or 1h (a bare number is seconds; default 5m, at most 24h)")
    Duration timeout;

    /** How long each part has to come back when --timeout is not given. */
    static final Duration EACH = Duration.ofMinutes(5);

    @Override
    public Integer call() {
        Duration each = timeout == null ? EACH : WaitTimeout.checked(spec, WaitTimeout.NAME, timeout);
        UpgradeRun run = new UpgradeRun(ControllerClient.fromEnvironment(), line -> {
            if (!format.json()) {
                output.line(spec, line);
            }
        });
        UpgradePlan.Plan plan = run.plan(nodes);
        if (plan.refusal() != null) {
            throw new VerbFailure("mesh upgrade: " + plan.refusal());
        }
        UpgradeRun.Report report = dryRun ? run.dryRun(plan) : run.carryOut(plan, each);
        if (format.json()) {
            output.json(spec, report);
        }
        if (report.stopped() != null) {
            output.error(spec, "mesh upgrade: " + report.stopped());
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }
}
