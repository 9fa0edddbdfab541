package mesh.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

@TopCommand
@Command(name = "mesh",
        mixinStandardHelpOptions = true,
        versionProvider = MeshVersion.class,
        description = "Runs a small fleet of self-hosted servers as one mesh.",
        subcommands = {NodeCommand.class, CatalogueCommand.class, AssignCommand.class, UnassignCommand.class,
            PushCommand.class, StatusCommand.class, RosterCommand.class, HostCommand.class, ControllerCommand.class},
        footer = {"", "Exit codes: 0 done, 1 the verb failed (the message says why), 2 usage error."})
public class MeshCommand {
}
