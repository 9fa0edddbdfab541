package mesh.cli;

import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import mesh.controller.MeshController;
import mesh.model.Node;
import mesh.wire.AddedNode;
import mesh.wire.NodeView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "node",
        mixinStandardHelpOptions = true,
        description = {"The machines of the mesh. Uses MESH_CONTROLLER and MESH_TOKEN."})
public class NodeCommand {

    @Spec
    CommandSpec spec;

    @Inject
    Output output;

    @Mixin
    OutputOption format;

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Add a node. Prints its agent token once: run its host agent with it as MESH_HOST_TOKEN."})
    int add(@Parameters(paramLabel = "NAME") String name,
            @Option(names = "--address", required = true, paramLabel = "ADDR", description = "its mesh address") String address,
            @Option(names = "--agent", paramLabel = "URL", description = "its host agent (default http://ADDR:7701)") String agent,
            @Option(names = "--token", paramLabel = "HEX", description = "the agent token its agent already runs with (mesh install"
                    + " gives its own node so); default: a new one") String token) {
        ControllerClient controller = ControllerClient.fromEnvironment();
        AddedNode added = controller.send("POST", "/v1/mesh/nodes",
                Map.of("name", name, "address", address, "agent", agent == null ? "" : agent, "token", token == null ? "" : token),
                AddedNode.class);
        if (format.json()) {
            output.json(spec, added);
        } else {
            output.line(spec, "added node " + added.name() + " at " + added.address() + ", agent " + added.agent());
            output.line(spec, "agent token (shown once; run the node's agent with MESH_HOST_TOKEN=<token>):");
            output.line(spec, added.token());
            output.line(spec, "on " + added.name() + ", as root, to install and start its agent:");
            output.line(spec, "  mesh install --join " + controller.base() + " --token " + added.token() + " --node " + added.name()
                    + " --address " + added.address());
        }
        return ExitCodes.OK;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = {"List the nodes and where their pushes stand."})
    int list() {
        List<NodeView> nodes = ControllerClient.fromEnvironment().nodes();
        if (format.json()) {
            output.json(spec, nodes);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("NAME", "ADDRESS", "AGENT", "PUBLIC DOMAIN", "SENT", "ACKED", "LAST ERROR"),
                nodes.stream().map(n -> java.util.Arrays.asList(n.name(), n.address(), n.agent(), n.publicDomain(),
                        Long.toString(n.generation()), Long.toString(n.ackedGeneration()), n.lastError())).toList());
        return ExitCodes.OK;
    }

    @Command(name = "public-domain", mixinStandardHelpOptions = true,
            description = {"Set the domain a node's edge serves routes under: route R of a module running there is R.DOMAIN."})
    int publicDomain(@Parameters(paramLabel = "NAME") String name, @Parameters(paramLabel = "DOMAIN") String domain) {
        Node node = ControllerClient.fromEnvironment().send("PUT", ControllerClient.path("/v1/mesh/nodes", name, "/public-domain"),
                Map.of("domain", domain), Node.class);
        if (format.json()) {
            output.json(spec, node);
        } else {
            output.line(spec, "node " + node.name() + " serves routes under " + node.publicDomain()
                    + " (takes effect at the next push)");
        }
        return ExitCodes.OK;
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = {"Remove a node that runs nothing."})
    int remove(@Parameters(paramLabel = "NAME") String name) {
        ControllerClient.fromEnvironment().send("DELETE", ControllerClient.path("/v1/mesh/nodes", name), null, null);
        if (format.json()) {
            output.json(spec, Map.of("removed", name));
        } else {
            output.line(spec, "removed node " + name);
        }
        return ExitCodes.OK;
    }
}
