package mesh.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * CompletionCommand prints the shell completion script picocli's AutoComplete generates from mesh's
 * own command tree, so completion always knows every verb and option of this very executable.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a shell completion script for mesh: every verb and option.",
            "  bash  source <(mesh completion bash)     (or save it in /etc/bash_completion.d/mesh)",
            "  zsh   the same script, through bashcompinit: source <(mesh completion zsh)"},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh completion bash > /etc/bash_completion.d/mesh",
            "  mesh completion zsh"})
public class CompletionCommand implements Callable<Integer> {

    /** Shell is a shell the script serves; zsh runs the bash script through bashcompinit. */
    enum Shell { BASH, ZSH }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHELL", description = "bash or zsh")
    Shell shell;

    @Override
    public Integer call() {
        // the script itself turns on bashcompinit when it runs under zsh
        spec.commandLine().getOut().print(AutoComplete.bash("mesh", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
