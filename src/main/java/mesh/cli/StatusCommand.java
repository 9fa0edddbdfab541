package mesh.cli;

import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.controller.MeshController;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Each node: the generation last sent, the one it acknowledged, and whether it is behind."})
public class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Inject
    Output output;

    @Mixin
    OutputOption format;

    static String state(MeshController.NodeView n) {
        if (n.lastError() != null) {
            return "behind: " + n.lastError();
        }
        if (n.ackedGeneration() == 0) {
            return "never pushed";
        }
        return n.generation() > n.ackedGeneration() ? "behind" : "up to date";
    }

    @Override
    public Integer call() {
        List<MeshController.NodeView> nodes = ControllerClient.fromEnvironment().nodes();
        if (format.json()) {
            output.json(spec, nodes);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("NODE", "SENT", "ACKED", "STATE"), nodes.stream().map(n -> Arrays.asList(n.name(),
                Long.toString(n.generation()), Long.toString(n.ackedGeneration()),
                state(n))).toList());
        return ExitCodes.OK;
    }
}
