package mesh.cli;

import java.util.List;
import java.util.Map;
import mesh.model.Node;
import mesh.wire.AddedNode;
import mesh.wire.NodeToken;
import mesh.wire.NodeView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "node",
        mixinStandardHelpOptions = true,
        description = {"The machines of the mesh. Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh node add ace --address 10.77.0.11",
            "      prints the line to run on ace as root",
            "  mesh node list"})
public class NodeCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Add a node and print its join line once.",
                "The line holds a one-time join token that works for 24 h: run it on the node to install its agent ('mesh node token NAME --rotate' makes a new one)."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node add bee --address 10.77.0.12",
                "      then run the printed 'mesh install --join ...' line on bee, as root"})
    int add(@Parameters(paramLabel = "NAME", description = "the new node's name") String name,
            @Option(names = "--address", required = true, paramLabel = "ADDR", description = "its mesh address") String address,
            @Option(names = "--agent", paramLabel = "URL", description = "its agent's URL (default https://ADDR:7701; http:// if plain HTTP)") String agent) {
        ControllerClient controller = ControllerClient.fromEnvironment();
        AddedNode added = controller.api().addNode(name, address, agent, true);
        if (format.json()) {
            output.json(spec, added);
        } else {
            output.line(spec, "added node " + added.name() + " at " + added.address() + ", agent " + added.agent());
            joinLine(controller, added.name(), added.address(), added.joinToken(), added.joinTokenExpires());
        }
        return ExitCodes.OK;
    }

    /** The join line, with what its token allows: the one place it is shown. */
    private void joinLine(ControllerClient controller, String node, String address, String token, String expires) {
        output.line(spec, "on " + node + ", as root, to install its agent (the join token works once, until " + expires
                + ", 24 h; shown only now):");
        String caHash = controller.caHash();
        output.line(spec, "  mesh install --join " + controller.base() + " --token " + token + " --node " + node
                + " --address " + address + (caHash == null ? "" : " --ca-hash " + caHash));
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = {"List the nodes and where their pushes stand.",
        "VERSION is the build each node's agent last reported ('mesh status' and every push hear it; '-' until "
                + "then); on stderr, a warning when the controller and the agents are not all one build."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node list",
                "  mesh node list -o json"})
    int list() {
        ControllerClient controller = ControllerClient.fromEnvironment();
        List<NodeView> nodes = controller.api().nodes();
        if (format.json()) {
            output.json(spec, nodes);
        } else {
            output.table(spec, List.of("NAME", "ADDRESS", "AGENT", "PUBLIC DOMAIN", "SENT", "ACKED", "VERSION", "LAST ERROR"),
                    nodes.stream().map(n -> java.util.Arrays.asList(n.name() + (n.cordoned() ? " (cordoned)" : ""), n.address(), n.agent(), n.publicDomain(),
                            Long.toString(n.generation()), Long.toString(n.ackedGeneration()), BuildLines.cell(n.agentBuild()),
                            n.lastError())).toList());
        }
        java.util.Map<String, String> heard = new java.util.LinkedHashMap<>();
        nodes.stream().filter(n -> n.agentBuild() != null).forEach(n -> heard.put(n.name(), n.agentBuild().words()));
        BuildLines.mix(BuildLines.controller(controller), heard).ifPresent(w -> output.error(spec, "mesh: " + w));
        return ExitCodes.OK;
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = {"Change a node's address or agent URL, at the next push.", "An agent URL that was the default for the "
                        + "old address follows the address. Only the containers that bind a name that resolves to the node, or "
                        + "publish ports on it, are replaced; 'mesh push --dry-run' shows them first."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node set ace --address 10.77.0.21",
                "  mesh push --dry-run",
                "      shows the containers the move replaces"})
    int set(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name,
            @Option(names = "--address", paramLabel = "ADDR", description = "its new mesh address") String address,
            @Option(names = "--agent", paramLabel = "URL", description = "its host agent's new URL") String agent) {
        if (address == null && agent == null) {
            throw new ParameterException(spec.commandLine().getSubcommands().get("set"),
                    "node set needs --address ADDR, --agent URL or both");
        }
        Node node = ControllerClient.fromEnvironment().api().setNode(name, address, agent);
        if (format.json()) {
            output.json(spec, node);
        } else {
            output.line(spec, "node " + node.name() + " is at " + node.address() + ", agent " + node.agent()
                    + " (takes effect at the next push; 'mesh push --dry-run' shows what it replaces)");
        }
        return ExitCodes.OK;
    }

    @Command(name = "token", mixinStandardHelpOptions = true,
            description = {"Give a node a new one-time join token (--rotate) and print its join line once.", "Run the line on the node to (re-)install its "
                        + "agent with 'mesh install --join'. It works once, for 24 h; the node's earlier one, if unspent, no "
                        + "longer works. A running agent is not concerned: it takes calls on the controller's certificate."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node token bee --rotate"})
    int token(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name,
              @Option(names = "--rotate", description = "make a new token (required: a token is shown only when made)")
              boolean rotate) {
        if (!rotate) {
            throw new ParameterException(spec.commandLine().getSubcommands().get("token"),
                    "node token needs --rotate: a token is shown only once, when it is made");
        }
        ControllerClient controller = ControllerClient.fromEnvironment();
        NodeToken made = controller.api().nodeToken(name);
        if (format.json()) {
            output.json(spec, made);
        } else {
            output.line(spec, "node " + made.name() + " has a new join token; its earlier one, if unspent, no longer works.");
            joinLine(controller, made.name(), made.address(), made.joinToken(), made.joinTokenExpires());
        }
        return ExitCodes.OK;
    }

    @Command(name = "public-domain", mixinStandardHelpOptions = true,
            description = {"Set the domain a node's edge serves routes under: route R of a module running there is R.DOMAIN."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node public-domain ace zurag.be",
                "      route searxng of a module on ace is then served as searxng.zurag.be"})
    int publicDomain(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name, @Parameters(paramLabel = "DOMAIN", description = "the public domain, e.g. zurag.be") String domain) {
        Node node = ControllerClient.fromEnvironment().api().publicDomain(name, domain);
        if (format.json()) {
            output.json(spec, node);
        } else {
            output.line(spec, "node " + node.name() + " serves routes under " + node.publicDomain()
                    + " (takes effect at the next push)");
        }
        return ExitCodes.OK;
    }

    @Command(name = "cordon", mixinStandardHelpOptions = true,
            description = {"Keep new work off a node: no assignment, take or restore onto it is accepted, naming it.",
                "What runs there stays; 'mesh drain NODE' cordons it and moves its modules off, 'mesh node uncordon' lifts it."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node cordon n2",
                "  mesh node uncordon n2"})
    int cordon(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name) {
        return cordoned(ControllerClient.fromEnvironment().api().cordon(name, true));
    }

    @Command(name = "uncordon", mixinStandardHelpOptions = true,
            description = {"Lift a node's cordon: assignments, takes and restores onto it are accepted again."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node uncordon n2"})
    int uncordon(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name) {
        return cordoned(ControllerClient.fromEnvironment().api().cordon(name, false));
    }

    private int cordoned(NodeView node) {
        if (format.json()) {
            output.json(spec, node);
        } else {
            output.line(spec, "node " + node.name() + (node.cordoned() ? " is cordoned: no new assignment, take or restore onto it"
                    : " is not cordoned: new work may go onto it"));
        }
        return ExitCodes.OK;
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = {"Remove a node that runs nothing.",
            "A node that holds a copy of a module restored elsewhere while it was down is kept until its agent answers "
                    + "once (the copy is then fenced there): removed before, it would run the module again if it came back "
                    + "with its disk. --forget-lost removes it all the same, for a machine gone for good or a wiped disk."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh node remove bee",
                "  mesh node remove bee --forget-lost",
                "      bee's machine is gone for good: forget the copies it held of modules restored elsewhere"})
    int remove(@Parameters(paramLabel = "NAME", description = "the node, as 'mesh node list' names it") String name,
               @Option(names = "--forget-lost", description = "the node is gone for good (or its disk wiped): forget the "
                       + "copies of modules restored elsewhere that it still holds, unfenced") boolean forgetLost) {
        ControllerClient.fromEnvironment().api().removeNode(name, forgetLost);
        if (format.json()) {
            output.json(spec, Map.of("removed", name));
        } else {
            output.line(spec, "removed node " + name);
        }
        return ExitCodes.OK;
    }
}
