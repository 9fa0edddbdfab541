package mesh.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

/**
 * MeshCommand is the top of the command tree: its options and help. Its verbs are added by
 * {@link MeshCommandLine}, which builds only the one a run asks for when it can.
 */
@TopCommand
@Command(name = "mesh",
        mixinStandardHelpOptions = true,
        versionProvider = MeshVersion.class,
        description = "Runs a small fleet of self-hosted servers as one mesh.",
        footerHeading = "%nExamples:%n",
        footer = {"  mesh status",
            "      each node, what runs there and what needs attention",
            "  mesh catalogue add examples/ && mesh assign ace searxng && mesh push --wait",
            "      add modules, place one on node ace, and send every node its declaration",
            "  mesh take bee searxng",
            "      move searxng to node bee with its data",
            "  mesh help push",
            "      the help of one verb (the same as mesh push --help)",
            "",
            "Operator verbs talk to the controller at MESH_CONTROLLER (default http://127.0.0.1:7700) with",
            "the operator token MESH_TOKEN. Every reporting verb takes -o json, before or after the verb",
            "(mesh -o json status, mesh status -o json). 'mesh VERB --help' says more.",
            "Shell completion: source <(mesh completion bash).",
            "",
            "Exit codes: 0 done, 1 the verb failed (the message says why), 2 usage error.",
            "",
            "Words:",
            "  seat         the machine 'mesh install' seated the mesh on: it runs the controller, the store",
            "               and the registry, and holds the CA's and the secrets' keys",
            "  node         a machine of the mesh, with a host agent that keeps its engine at its declaration",
            "  declaration  what one node shall run (components, networks, routes), planned by the controller",
            "               and sent to the node's agent by a push",
            "  generation   a declaration's number on its node: each push that changes it sends the next one",
            "  assigned     where 'mesh assign' says a module shall run",
            "  taken        where a module runs now, with its data and names; a module assigned elsewhere",
            "               stays where it is taken until 'mesh take' moves it",
            "  roster       every mesh name (MODULE.internal, routes) and the address it resolves to",
            "  binds        the mesh names a component resolves; it is replaced when one of them moves",
            "  budget       how many containers one push may replace and remove before it stops without --yes",
            "               (MESH_PUSH_BUDGET of the controller, default 10)",
            "  left behind  a node an earlier push could not reach: the next push sends it too",
            "  fence        a take's or restore's hold on a module on a node: stopped, and its agent refuses",
            "               to start it",
            "  pre-copy     a take's copy of the data while the module still runs, pass after pass, before",
            "               the fence; after it only what changed is sent",
            "  old copy     the data a take or restore leaves on the node the module ran on, kept until",
            "               'mesh take --forget-old MODULE'"})
public class MeshCommand {
}
