package mesh.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * ShortParseErrors turns a usage mistake into one line that ends with where to look, not a usage dump: an operator
 * who mistyped a verb wants to see what was wrong, then where to look.
 */
final class ShortParseErrors implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("mesh: " + ex.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return ExitCodes.USAGE;
    }
}
