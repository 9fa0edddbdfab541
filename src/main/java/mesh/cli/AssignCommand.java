package mesh.cli;

import mesh.model.Placement;
import picocli.CommandLine.Command;

@Command(name = "assign", mixinStandardHelpOptions = true,
        description = {"Record that MODULE shall run on NODE (effective at the next push).",
            "A module that runs nowhere starts there; one that runs elsewhere keeps running there, with its names, until it is taken."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh assign ace searxng",
            "  mesh push"})
public class AssignCommand extends PlacementVerb {

    @Override
    Placement placement(mesh.client.ControllerApi api) {
        return api.assign(node, module);
    }

    @Override
    String said(Placement p) {
        return "assigned " + module + " to " + node + (node.equals(p.taken()) ? ""
                : "; it keeps running on " + p.taken() + " until it is taken");
    }
}
