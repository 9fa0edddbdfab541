package mesh.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

@TopCommand
@Command(name = "mesh",
        mixinStandardHelpOptions = true,
        versionProvider = MeshVersion.class,
        description = "Runs a small fleet of self-hosted servers as one mesh.",
        subcommands = {NodeCommand.class, CatalogueCommand.class, AssignCommand.class, UnassignCommand.class,
            PushCommand.class, RollbackCommand.class, TakeCommand.class, BackupCommand.class, RestoreCommand.class, StatusCommand.class, RosterCommand.class, RouteCommand.class,
            TokenCommand.class, SecretCommand.class, AuditCommand.class, CaCommand.class, LogsCommand.class, BundleCommand.class, HostCommand.class,
            ControllerCommand.class, CompletionCommand.class, InstallCommand.class, UninstallCommand.class},
        footer = {"",
            "Operator verbs talk to the controller at MESH_CONTROLLER (default http://127.0.0.1:7700) with",
            "the operator token MESH_TOKEN. Every reporting verb takes -o json, before or after the verb",
            "(mesh -o json status, mesh status -o json). 'mesh VERB --help' says more.",
            "Shell completion: source <(mesh completion bash).",
            "",
            "Exit codes: 0 done, 1 the verb failed (the message says why), 2 usage error."})
public class MeshCommand {
}
