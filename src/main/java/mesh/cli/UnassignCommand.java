package mesh.cli;

import mesh.model.Placement;
import picocli.CommandLine.Command;

@Command(name = "unassign", mixinStandardHelpOptions = true,
        description = {"Record that MODULE shall no longer run on NODE (effective at the next push).",
            "If it runs there it stops there; its volumes are kept."})
public class UnassignCommand extends PlacementVerb {

    @Override
    String method() {
        return "DELETE";
    }

    @Override
    String said(Placement p) {
        return "unassigned " + module + " from " + node
                + (p.taken() == null ? "; it runs nowhere after the next push" : "; it keeps running on " + p.taken());
    }
}
