package mesh.cli;

import java.util.List;
import java.util.concurrent.Callable;
import mesh.plan.MeshPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "roster", mixinStandardHelpOptions = true,
        description = {"Every mesh name and the address it resolves to, as of the last push.",
            "A routed name (KIND route) resolves to the edge node that serves it (NODE); SERVED says which edge "
                    + "proxies it and, when the module runs on another node, to which."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh roster",
            "  mesh roster -o json"})
public class RosterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Override
    public Integer call() {
        List<MeshPlan.RosterEntry> roster = ControllerClient.fromEnvironment().api().roster();
        if (format.json()) {
            output.json(spec, roster);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("NAME", "ADDRESS", "NODE", "MODULE", "KIND", "SERVED"),
                roster.stream().map(e -> List.of(e.name(), e.address(), e.node(), e.module(), e.kind(), served(e, roster)))
                        .toList());
        return ExitCodes.OK;
    }

    /**
     * How a routed name is served: {@code by zurag's edge}, and {@code , from g14} when its module
     * runs on another node (where the roster's {@code <module>.internal} resolves, as of the same push).
     */
    static String served(MeshPlan.RosterEntry e, List<MeshPlan.RosterEntry> roster) {
        if (!"route".equals(e.kind())) {
            return "-";
        }
        String runsOn = roster.stream().filter(r -> "internal".equals(r.kind()) && r.module().equals(e.module()))
                .map(MeshPlan.RosterEntry::node).findFirst().orElse(e.node());
        return "by " + e.node() + "'s edge" + (runsOn.equals(e.node()) ? "" : ", from " + runsOn);
    }
}
