package mesh.cli;

import picocli.CommandLine.Command;

@Command(name = "host",
        mixinStandardHelpOptions = true,
        description = {"The host agent: what runs on every node and applies its declaration to the local engine."},
        subcommands = {HostServeCommand.class, HostApplyCommand.class, HostHistoryCommand.class, HostLogsCommand.class,
            HostUpgradeSelfCommand.class})
public class HostCommand {
}
