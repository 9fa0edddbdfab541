package mesh.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import mesh.install.InstallFailure;
import mesh.install.SeatPromotion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** SeatPromoteCommand makes the standby the seat when the seat is lost ({@code mesh seat promote NODE}; docs/seat.md). */
@Command(name = "promote",
        mixinStandardHelpOptions = true,
        description = {"Make the standby the seat, when the seat is lost: its store promoted, its controller started at the next controller epoch.",
            "Run it as root on the standby NODE (the seat is dead: no controller can run it). Steps, each recorded in "
                    + "STATE-DIR/install/promote when done so that a promote cut short resumes at the first step not done: "
                    + "check (this machine is NODE and holds the seat's keys), store (pg_promote on its store, no synchronous "
                    + "standby any more), certificate (the controller's, issued with the mesh CA's key), controller (started "
                    + "detached at the next epoch, named seat NODE), agents (one status look through it: every agent it reaches "
                    + "records the epoch and refuses the deposed seat from then on), config (the operator's config names the new "
                    + "seat first and keeps the old one).",
            "There is no automatic promotion: two seats cannot tell a dead peer from a cut link without a third voter "
                    + "(docs/seat.md). Promote only a seat that is lost or cut off for good."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat promote n2",
            "      on n2, as root, once the seat is lost"})
public class SeatPromoteCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Parameters(index = "0", paramLabel = "NODE", description = "the standby to make the seat: this machine")
    String node;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state on this node (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Override
    public Integer call() {
        Path config = ControllerClient.configFile(System.getenv());
        if (config == null) {
            throw new VerbFailure("HOME is not set: the operator's config (~/.config/mesh/config) has no place; nothing was changed");
        }
        long t0 = System.nanoTime();
        try {
            String url = new SeatPromotion(stateDir, node, config, l -> output.line(spec, l)).run();
            output.line(spec, node + " is the seat: its controller answers at " + url + " ("
                    + (System.nanoTime() - t0) / 1_000_000 + " ms); " + config + " names it first");
        } catch (InstallFailure e) {
            throw new VerbFailure(e.getMessage());
        }
        return ExitCodes.OK;
    }
}
