package mesh.cli;

import java.util.concurrent.Callable;
import mesh.model.Placement;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** PlacementVerb is what {@code assign} and {@code unassign} share: NODE MODULE, one call, one line. */
abstract class PlacementVerb implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(index = "0", paramLabel = "NODE", description = "the node, as 'mesh node list' names it")
    String node;

    @Parameters(index = "1", paramLabel = "MODULE", description = "the module, as 'mesh catalogue list' names it")
    String module;

    /** The call on the node's module: an assign or an unassign. */
    abstract Placement placement(mesh.client.ControllerApi api);

    /** The line an operator reads after it. */
    abstract String said(Placement p);

    @Override
    public Integer call() {
        Placement p = placement(ControllerClient.fromEnvironment().api());
        if (format.json()) {
            output.json(spec, p);
        } else {
            output.line(spec, said(p));
        }
        return ExitCodes.OK;
    }
}
