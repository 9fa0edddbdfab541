package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import mesh.model.Placement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "unassign", mixinStandardHelpOptions = true,
        description = {"Record that MODULE shall no longer run on NODE (effective at the next push).",
            "If it runs there it stops there; its volumes are kept.",
            "The mesh's own modules (mesh-store, mesh-registry, mesh-controller, an edge serving routes) are refused "
                    + "where they run; move one with 'mesh take'."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh unassign ace searxng",
            "  mesh push --dry-run",
            "      shows what stops"})
public class UnassignCommand extends PlacementVerb {

    @Option(names = "--force-remove-mesh-module", paramLabel = "MODULE",
            description = "unassign this mesh module all the same (not the controller, nor the controller's own store);"
                    + " the push that removes it needs the same flag")
    List<String> forced = new ArrayList<>();

    @Override
    Placement placement(mesh.client.ControllerApi api) {
        return api.unassign(node, module, forced);
    }

    @Override
    String said(Placement p) {
        return "unassigned " + module + " from " + node
                + (p.taken() == null ? "; it runs nowhere after the next push" : "; it keeps running on " + p.taken());
    }
}
