package mesh.cli;

import mesh.wire.EdgeCa;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * RouteCommand is {@code mesh route}: what an operator asks about the routes an edge serves
 * (docs/edge.md). The routes themselves are in {@code mesh roster} and {@code mesh status}.
 */
@Command(name = "route",
        mixinStandardHelpOptions = true,
        description = {"The routes the mesh's edges serve. Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh route ca ace > ace-ca.pem"})
public class RouteCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "ca", mixinStandardHelpOptions = true,
            description = {"Print the root certificate (PEM) of a node's edge CA.", "Only an edge with MESH_EDGE_TLS: internal has one; give it to the clients of its routes."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh route ca ace > ace-ca.pem && curl --cacert ace-ca.pem https://searxng.zurag.be/"})
    int ca(@Parameters(paramLabel = "NODE", description = "the edge node") String node) {
        EdgeCa ca = ControllerClient.fromEnvironment().api().edgeCa(node);
        if (format.json()) {
            output.json(spec, ca);
        } else {
            output.line(spec, ca.pem().strip());
        }
        return ExitCodes.OK;
    }
}
