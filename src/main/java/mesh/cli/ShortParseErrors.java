package mesh.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * ShortParseErrors turns a usage mistake into one line that ends with where to look, not a usage dump: an operator
 * who mistyped a verb wants to see what was wrong, then where to look. A mistyped verb or option close to a real
 * one gets "did you mean"; a group named without a verb ({@code mesh}, {@code mesh node}) prints its usage.
 */
final class ShortParseErrors implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String where = " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')";
        if (withoutItsVerb(ex)) {
            cmd.usage(err, cmd.getColorScheme());
        } else if (ex instanceof CommandLine.UnmatchedArgumentException u && !near(u).isEmpty()) {
            String word = u.getUnmatched().getFirst();
            String meant = String.join("' or '", near(u));
            err.println("mesh: " + (u.isUnknownOption() ? "Unknown option: '" + word + "'"
                    : "'" + word + "' is no verb of " + cmd.getCommandSpec().qualifiedName())
                    + "; did you mean '" + meant + "'?" + where);
        } else {
            err.println("mesh: " + message(ex) + where);
        }
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * The mistake in one line. A value that could not be read is said as {@code --tail: '5m' is not a whole number}
     * ({@link OperatorValues} words the reason), an option's name first as the operator typed it, without
     * picocli's "Invalid value for option" and without the Java type it wanted.
     */
    static String message(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.isUnknownOption() && !u.getUnmatched().isEmpty()) {
            CommandLine cmd = u.getCommandLine();
            String words = "'" + String.join("' '", u.getUnmatched()) + "'";
            return words + (cmd.getSubcommands().isEmpty() ? " is not an argument of " : " is no verb of ")
                    + cmd.getCommandSpec().qualifiedName();
        }
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

    /** A group that runs nothing itself, given no verb: picocli's plain ParameterException, as it says it. */
    private static boolean withoutItsVerb(CommandLine.ParameterException ex) {
        CommandLine cmd = ex.getCommandLine();
        Object command = cmd.getCommand();
        return ex.getClass() == CommandLine.ParameterException.class && !cmd.getSubcommands().isEmpty()
                && !(command instanceof Runnable || command instanceof Callable<?>)
                && (cmd.getParseResult() == null || !cmd.getParseResult().hasSubcommand());
    }

    /** picocli's suggestions that are close to the word given: two edits away at most, or one begins the other. */
    static List<String> near(CommandLine.UnmatchedArgumentException u) {
        if (u.getUnmatched().isEmpty()) {
            return List.of();
        }
        String word = u.getUnmatched().getFirst();
        return u.getSuggestions().stream()
                .filter(s -> edits(word, s) <= 2 || (word.length() >= 3 && s.startsWith(word)) || word.startsWith(s))
                .limit(3).toList();
    }

    /** The Levenshtein distance between two words. */
    static int edits(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.length()];
    }
}
