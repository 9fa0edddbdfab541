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
        footer = {"",
            "Operator verbs talk to the controller at MESH_CONTROLLER (default http://127.0.0.1:7700) with",
            "the operator token MESH_TOKEN. Every reporting verb takes -o json, before or after the verb",
            "(mesh -o json status, mesh status -o json). 'mesh VERB --help' says more.",
            "Shell completion: source <(mesh completion bash).",
            "",
            "Exit codes: 0 done, 1 the verb failed (the message says why), 2 usage error."})
public class MeshCommand {
}
