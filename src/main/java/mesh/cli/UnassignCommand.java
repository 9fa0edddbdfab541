package mesh.cli;

import jakarta.inject.Inject;
import mesh.model.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "unassign", mixinStandardHelpOptions = true,
        description = {"Record that MODULE shall no longer run on NODE (effective at the next push).",
            "If it runs there it stops there; its volumes are kept."})
public class UnassignCommand implements java.util.concurrent.Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Inject
    Output output;

    @Mixin
    OutputOption format;

    @Parameters(index = "0", paramLabel = "NODE")
    String node;

    @Parameters(index = "1", paramLabel = "MODULE")
    String module;

    @Override
    public Integer call() {
        Placement p = ControllerClient.fromEnvironment().send("DELETE", ControllerClient.path("/v1/mesh/nodes", node, "/modules", module),
                null, Placement.class);
        if (format.json()) {
            output.json(spec, p);
        } else {
            output.line(spec, "unassigned " + module + " from " + node
                    + (p.taken() == null ? "; it runs nowhere after the next push" : "; it keeps running on " + p.taken()));
        }
        return ExitCodes.OK;
    }
}
