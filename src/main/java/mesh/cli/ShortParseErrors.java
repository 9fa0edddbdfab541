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
        err.println("mesh: " + message(ex) + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * The mistake in one line. A value that could not be read is said as {@code --tail: '5m' is not a whole number}
     * ({@link OperatorValues} words the reason), an option's name first as the operator typed it, without
     * picocli's "Invalid value for option" and without the Java type it wanted.
     */
    static String message(CommandLine.ParameterException ex) {
        CommandLine.Model.ArgSpec arg = ex.getArgSpec();
        if (arg == null || !(ex.getCause() instanceof CommandLine.TypeConversionException t)) {
            return ex.getMessage();
        }
        String name = arg instanceof CommandLine.Model.OptionSpec o ? o.longestName() : arg.paramLabel();
        if (arg.type().isEnum()) {
            return name + ": '" + ex.getValue() + "' is not one of " + String.join(", ", java.util.Arrays.stream(arg.type()
                    .getEnumConstants()).map(c -> c.toString().toLowerCase(java.util.Locale.ROOT)).toList());
        }
        return name + ": " + t.getMessage();
    }
}
