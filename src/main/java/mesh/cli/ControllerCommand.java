package mesh.cli;

import picocli.CommandLine.Command;

@Command(name = "controller",
        mixinStandardHelpOptions = true,
        description = {"The controller, which keeps the mesh's state and pushes the declarations."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh controller serve --config /etc/mesh/controller.env"},
        subcommands = {ControllerServeCommand.class})
public class ControllerCommand {
}
