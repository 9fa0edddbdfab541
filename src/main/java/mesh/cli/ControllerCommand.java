package mesh.cli;

import picocli.CommandLine.Command;

@Command(name = "controller",
        mixinStandardHelpOptions = true,
        description = {"The controller: keeps the catalogue, nodes and placements in its store and pushes declarations."},
        subcommands = {ControllerServeCommand.class})
public class ControllerCommand {
}
