package mesh.cli;

import jakarta.inject.Inject;
import mesh.model.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "assign", mixinStandardHelpOptions = true,
        description = {"Record that MODULE shall run on NODE (effective at the next push).",
            "A module that runs nowhere starts there; one that runs elsewhere keeps running there,",
            "with its names, until it is taken."})
public class AssignCommand implements java.util.concurrent.Callable<Integer> {

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
        Placement p = ControllerClient.fromEnvironment().send("PUT", ControllerClient.path("/v1/mesh/nodes", node, "/modules", module),
                null, Placement.class);
        if (format.json()) {
            output.json(spec, p);
        } else {
            output.line(spec, "assigned " + module + " to " + node + (node.equals(p.taken()) ? ""
                    : "; it keeps running on " + p.taken() + " until it is taken"));
        }
        return ExitCodes.OK;
    }
}
