package mesh.cli;

import picocli.CommandLine.Command;

@Command(name = "host",
        mixinStandardHelpOptions = true,
        description = {"The host agent, which runs on every node and keeps its engine at its declaration."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh host history",
            "  mesh host logs mesh-controller.serve -n 50"},
        subcommands = {HostServeCommand.class, HostApplyCommand.class, HostHistoryCommand.class, HostLogsCommand.class,
            HostUpgradeSelfCommand.class})
public class HostCommand {
}
