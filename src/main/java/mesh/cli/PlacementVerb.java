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

    @Parameters(index = "0", paramLabel = "NODE")
    String node;

    @Parameters(index = "1", paramLabel = "MODULE")
    String module;

    /** The HTTP method on the node's module: PUT assigns, DELETE unassigns. */
    abstract String method();

    /** The query the call carries (with its '?'), or "" for none. */
    String query() {
        return "";
    }

    /** The line an operator reads after it. */
    abstract String said(Placement p);

    @Override
    public Integer call() {
        Placement p = ControllerClient.fromEnvironment().send(method(),
                ControllerClient.path("/v1/mesh/nodes", node, "/modules", module) + query(), null, Placement.class);
        if (format.json()) {
            output.json(spec, p);
        } else {
            output.line(spec, said(p));
        }
        return ExitCodes.OK;
    }
}
