package mesh.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;

/**
 * HelpLayout is how every mesh help reads: each verb's description is written one array element per
 * paragraph and wrapped once, by picocli, at {@link #WIDTH}; the command list shows each verb's whole
 * first sentence (its summary), never a cut first line. Set on the whole tree by {@link MeshCommandLine}.
 */
final class HelpLayout {

    /** The width help is wrapped at. */
    static final int WIDTH = 100;

    private HelpLayout() {
    }

    /** Sets the layout on {@code cmd} and every command under it; a subcommand's --version prints mesh's. */
    static void apply(CommandLine cmd) {
        cmd.setUsageHelpWidth(WIDTH);
        Map<String, CommandLine.IHelpSectionRenderer> sections = new java.util.LinkedHashMap<>(cmd.getHelpSectionMap());
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpLayout::commandList);
        cmd.setHelpSectionMap(sections);
        cmd.setUsageHelpLongOptionsMaxWidth(Math.min(LONG_OPTIONS_MAX, Math.max(LONG_OPTIONS_MIN, longestOption(cmd))));
        if (cmd.getHelp().synopsis(cmd.getHelp().synopsisHeadingLength()).lines().skip(1).anyMatch(l -> !l.strip().contains(" "))) {
            // a synopsis that would wrap to a line of one word reads [OPTIONS] instead
            cmd.getCommandSpec().usageMessage().abbreviateSynopsis(true);
        }
        if (cmd.getCommandSpec().versionProvider() == null) {
            cmd.getCommandSpec().versionProvider(new MeshVersion());
        }
        cmd.getSubcommands().values().forEach(HelpLayout::apply);
    }

    /** The widest option or parameter column a command's options get, so none stands on a line of its own. */
    private static final int LONG_OPTIONS_MAX = 36;
    private static final int LONG_OPTIONS_MIN = 20;

    /** The width of a command's longest long option with its label, or positional parameter's label. */
    private static int longestOption(CommandLine cmd) {
        int longest = 0;
        for (CommandLine.Model.OptionSpec o : cmd.getCommandSpec().options()) {
            int label = o.typeInfo().isBoolean() ? 0 : o.paramLabel().length() + 1;
            longest = Math.max(longest, o.longestName().length() + label);
        }
        for (CommandLine.Model.PositionalParamSpec p : cmd.getCommandSpec().positionalParameters()) {
            longest = Math.max(longest, p.paramLabel().length() + 5);
        }
        return longest + 1;
    }

    /** The verbs under a command, each with its summary wrapped in its own column. */
    static String commandList(CommandLine.Help help) {
        Map<String, CommandLine.Help> verbs = help.subcommands();
        if (verbs.isEmpty()) {
            return "";
        }
        int names = verbs.keySet().stream().mapToInt(String::length).max().orElse(0) + 4;
        TextTable table = TextTable.forColumns(help.colorScheme(), new Column(names, 2, Column.Overflow.SPAN),
                new Column(help.commandSpec().usageMessage().width() - names, 2, Column.Overflow.WRAP));
        verbs.forEach((name, verb) -> {
            if (!verb.commandSpec().usageMessage().hidden()) {
                table.addRowValues(name, summary(verb.commandSpec().usageMessage()));
            }
        });
        return table.toString();
    }

    /** A verb's summary: its header if it has one, else the first sentence of its description. */
    static String summary(CommandLine.Model.UsageMessageSpec usage) {
        return usage.header().length > 0 ? usage.header()[0] : summary(usage.description());
    }

    /** The first sentence of the first paragraph: up to the first '.' that ends a word and is followed by a space. */
    static String summary(String[] description) {
        if (description.length == 0) {
            return "";
        }
        String first = description[0].strip();
        for (int i = first.indexOf('.'); i >= 0; i = first.indexOf('.', i + 1)) {
            boolean ends = i + 1 == first.length() || first.charAt(i + 1) == ' ';
            if (ends && !abbreviation(first, i)) {
                return first.substring(0, i + 1);
            }
        }
        return first;
    }

    /** e.g. and i.e. end no sentence. */
    private static boolean abbreviation(String text, int dot) {
        return text.startsWith("e.g", dot - 3) || text.startsWith("i.e", dot - 3);
    }
}
