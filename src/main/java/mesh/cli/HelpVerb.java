package mesh.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * HelpVerb is {@code mesh help VERB [SUBVERB]}: the help of any verb of the tree, as {@code mesh VERB SUBVERB --help}
 * prints it (picocli's own help verb stops at the first word).
 */
@Command(name = "help", helpCommand = true, mixinStandardHelpOptions = true,
        description = {"Show the help of a verb, as 'mesh VERB --help' does.", "With no verb, mesh's own help."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh help push", "      the same as mesh push --help", "  mesh help node list"})
public final class HelpVerb implements CommandLine.IHelpCommandInitializable2, Runnable {

    @Parameters(paramLabel = "VERB", arity = "0..*", description = "the verb, and its subverb if it has them (node list)")
    List<String> words = new ArrayList<>();

    private CommandLine self;
    private CommandLine.Help.ColorScheme colors;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter outWriter,
            PrintWriter errWriter) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = outWriter;
    }

    @Override
    public void run() {
        CommandLine at = self.getParent();
        for (String word : words) {
            CommandLine next = at.getSubcommands().get(word);
            if (next == null) {
                throw new CommandLine.ParameterException(self, "'" + word + "' is no verb of " + at.getCommandSpec().qualifiedName());
            }
            at = next;
        }
        at.usage(out, colors);
        out.flush();
    }
}
