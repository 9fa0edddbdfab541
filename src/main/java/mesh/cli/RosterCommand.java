package mesh.cli;

import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.plan.MeshPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "roster", mixinStandardHelpOptions = true,
        description = {"Every mesh name and the address it resolves to, as of the last push."})
public class RosterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Inject
    Output output;

    @Mixin
    OutputOption format;

    @Override
    public Integer call() {
        List<MeshPlan.RosterEntry> roster = ControllerClient.fromEnvironment().roster();
        if (format.json()) {
            output.json(spec, roster);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("NAME", "ADDRESS", "NODE", "MODULE", "KIND"),
                roster.stream().map(e -> List.of(e.name(), e.address(), e.node(), e.module(), e.kind())).toList());
        return ExitCodes.OK;
    }
}
