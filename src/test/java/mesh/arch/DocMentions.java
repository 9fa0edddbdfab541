package mesh.arch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * DocMentions reads what a Markdown page says about mesh's command line, from its code only (fenced
 * blocks and inline code spans; prose is not read), and checks it against the picocli tree
 * (DocsMatchCommandsTest). A code unit is a span, or a part of a fenced line: a fenced line is cut at
 * a run of two or more spaces (the README's usage block puts two verbs on a line) and before a
 * {@code #} comment, and a trailing backslash joins it with the next.
 *
 * <p>In a unit, {@code mesh} starts a <em>mention</em> where it stands as a command (first, after
 * a quote or parenthesis, a shell separator or keyword, an assignment, or a word ending in
 * {@code :;,}), not as a word of a sentence ("this mesh runs"). Its words are resolved through the
 * tree: a word where a verb is expected (the group takes no argument of its own) must be one, and
 * every option must be a visible option of the verb it follows. A unit that starts with an option
 * names that option alone: it must exist somewhere in the tree (a hidden old name may be explained
 * there, never used in a synopsis). A unit that starts with a verb without {@code mesh}
 * ({@code push --wait}) has its options checked the same way. Any other unit is another program's
 * ({@code curl --cacert}, {@code scripts/native --suite}), not read.
 */
final class DocMentions {

    /** One mention: the verb path it resolved to (words joined by a space), where, and what is wrong with it. */
    record Mention(String file, int line, String path, List<String> options, List<String> problems) {
    }

    /** One option named alone in a code unit. */
    record Standalone(String file, int line, String option) {
    }

    /** Everything one page's code says. */
    record Page(List<Mention> mentions, List<Standalone> options) {
    }

    private record Unit(int line, String text) {
    }

    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern LONG = Pattern.compile("--[a-z][a-z0-9-]*");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*|-[a-zA-Z]");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Z_][A-Z0-9_]*=\\S*");
    private static final Set<String> SEPARATORS = Set.of("|", "||", "&&", ";", ">", ">>", "<", "2>&1", "#", "&");
    private static final Set<String> KEYWORDS = Set.of("$", "#", "sudo", "until", "while", "if", "then", "do", "exec",
            "time", "!", "env");
    private static final Map<Character, Character> CLOSERS = Map.of('\'', '\'', '"', '"', '(', ')');

    private DocMentions() {
    }

    /** What {@code markdown} (the page {@code file}) says about the tree under {@code root}. */
    static Page read(String file, String markdown, CommandLine root) {
        List<Mention> mentions = new ArrayList<>();
        List<Standalone> options = new ArrayList<>();
        for (Unit unit : units(markdown)) {
            scan(file, unit, root, mentions, options);
        }
        return new Page(mentions, options);
    }

    /** The code units of a page: fenced lines (cut as said above) and inline spans, which may cross a line break. */
    static List<Unit> units(String markdown) {
        List<Unit> units = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        boolean fenced = false;
        StringBuilder paragraph = new StringBuilder();
        int paragraphLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FENCE.matcher(line).find()) {
                spans(paragraph, paragraphLine, units);
                paragraph.setLength(0);
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                int first = i;
                StringBuilder joined = new StringBuilder(line);
                while (joined.toString().stripTrailing().endsWith("\\") && i + 1 < lines.length) {
                    String kept = joined.toString().stripTrailing();
                    joined.setLength(0);
                    joined.append(kept.substring(0, kept.length() - 1).stripTrailing()).append(' ').append(lines[++i].strip());
                }
                for (String part : joined.toString().split("\\s{2,}|(?<=\\s|^)(?=#)")) {
                    if (!part.isBlank()) {
                        units.add(new Unit(first + 1, part.strip()));
                    }
                }
            } else if (line.isBlank() || line.startsWith("#")) {
                spans(paragraph, paragraphLine, units);
                paragraph.setLength(0);
            } else {
                if (paragraph.isEmpty()) {
                    paragraphLine = i + 1;
                }
                paragraph.append(line).append('\n');
            }
        }
        spans(paragraph, paragraphLine, units);
        return units;
    }

    private static void spans(CharSequence paragraph, int firstLine, List<Unit> units) {
        Matcher m = SPAN.matcher(paragraph);
        while (m.find()) {
            int line = firstLine + (int) paragraph.subSequence(0, m.start()).chars().filter(c -> c == '\n').count();
            String code = m.group(1).replace('\n', ' ').strip();
            if (!code.isEmpty()) {
                units.add(new Unit(line, code));
            }
        }
    }

    private static void scan(String file, Unit unit, CommandLine root, List<Mention> mentions, List<Standalone> options) {
        String[] tokens = unit.text().split("\\s+");
        String kind = kindOf(tokens[0], root);
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            if (isMesh(t) && (i == 0 || commandPosition(tokens[i - 1]) || opener(t) != 0)) {
                i = mention(file, unit.line(), tokens, i, root, true, mentions);
            } else if (i == 0 && kind.equals("verb")) {
                i = mention(file, unit.line(), tokens, i - 1, root, false, mentions);
            } else if (kind.equals("option") && LONG.matcher(bare(t)).matches()) {
                options.add(new Standalone(file, unit.line(), bare(t)));
            }
        }
    }

    private static String kindOf(String first, CommandLine root) {
        String w = bare(first);
        if (OPTION.matcher(w).matches()) {
            return "option";
        }
        return !first.equals(w) || !root.getSubcommands().containsKey(w) ? "other" : "verb";
    }

    private static boolean isMesh(String token) {
        return token.replaceFirst("^(\\$\\(|<\\(|[('\"])", "").equals("mesh");
    }

    private static char opener(String token) {
        return token.startsWith("$(") || token.startsWith("<(") ? '(' : token.isEmpty() || token.charAt(0) == 'm' ? 0 : token.charAt(0);
    }

    private static boolean commandPosition(String before) {
        return SEPARATORS.contains(before) || KEYWORDS.contains(before) || ASSIGNMENT.matcher(before).matches()
                || before.endsWith(":") || before.endsWith(";") || before.endsWith(",");
    }

    /**
     * Reads the mention whose {@code mesh} is at {@code start} (or, for a verb written without it, just before the
     * verb), adds it, and returns the index of its last token.
     */
    private static int mention(String file, int line, String[] tokens, int start, CommandLine root, boolean checkWords,
            List<Mention> out) {
        CommandLine cmd = root;
        char close = start >= 0 ? closerOf(opener(tokens[start])) : 0;
        List<String> path = new ArrayList<>();
        List<String> opts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        boolean args = false;
        boolean unresolved = false;
        boolean value = false;
        int i = start + 1;
        for (; i < tokens.length; i++) {
            String t = tokens[i];
            if (SEPARATORS.contains(t) && !(t.equals("|") && i + 1 < tokens.length && OPTION.matcher(bare(tokens[i + 1])).lookingAt())) {
                i--;
                break;
            }
            // a closing quote ends it, and so does a word with a colon: a message's prefix (`mesh controller: store …`)
            boolean last = close != 0 && t.indexOf(close) >= 0 || t.endsWith(":");
            String word = bare(t);
            List<String> parts = List.of(word.split("\\|"));
            if (parts.isEmpty() || parts.get(0).isEmpty() || word.equals("…") || word.equals("...")) {
                // an elision
            } else if (OPTION.matcher(parts.get(0).replaceFirst("=.*", "")).matches()) {
                for (String part : parts) {
                    String name = part.replaceFirst("=.*", "");
                    value = false;
                    if (cmd == root && (name.equals("-o") || name.equals("--output"))) {
                        value = !part.contains("="); // before the verb (LeadingOutput)
                        continue;
                    }
                    opts.add(name);
                    if (unresolved) {
                        continue;
                    }
                    OptionSpec o = cmd.getCommandSpec().findOption(name);
                    if (o == null || o.hidden() || !List.of(o.names()).contains(name)) {
                        problems.add("'mesh " + String.join(" ", path) + "' has no option " + name
                                + (o != null && o.hidden() ? " (a hidden old name: a synopsis uses the current one)" : ""));
                    } else {
                        value = o.arity().max() > 0 && !part.contains("=");
                    }
                }
            } else if (value) {
                value = false;
            } else if (unresolved || args) {
                // an argument
            } else if (!expectsVerb(cmd)) {
                args = cmd.getSubcommands().get(parts.get(0)) == null || !isVerb(cmd, parts.get(0));
                if (!args) {
                    cmd = cmd.getSubcommands().get(parts.get(0));
                    path.add(parts.get(0));
                }
            } else if (allVerbs(cmd, parts)) {
                cmd = cmd.getSubcommands().get(parts.get(0));
                path.add(parts.get(0));
            } else {
                unresolved = true;
                for (String p : parts) {
                    boolean placeholder = p.isEmpty() || !p.equals(p.toLowerCase()) || !Character.isLetter(p.charAt(0));
                    if (!placeholder && !isVerb(cmd, p) && checkWords) {
                        problems.add("'mesh " + String.join(" ", path) + (path.isEmpty() ? "" : " ") + p + "' is no verb");
                    }
                }
            }
            if (last) {
                break;
            }
        }
        if (!path.isEmpty() || !opts.isEmpty() || !problems.isEmpty()) {
            out.add(new Mention(file, line, String.join(" ", path), opts, problems));
        }
        return Math.min(i, tokens.length - 1);
    }

    /** Whether the word after {@code cmd} must be a verb: it has verbs and takes no argument of its own. */
    private static boolean allVerbs(CommandLine cmd, List<String> words) {
        return words.stream().allMatch(w -> isVerb(cmd, w));
    }

    /** Whether {@code word} names one of {@code cmd}'s verbs (by its name, not an alias). */
    private static boolean isVerb(CommandLine cmd, String word) {
        CommandLine sub = cmd.getSubcommands().get(word);
        return sub != null && sub.getCommandName().equals(word);
    }

    private static boolean expectsVerb(CommandLine cmd) {
        CommandSpec spec = cmd.getCommandSpec();
        return !cmd.getSubcommands().isEmpty() && spec.positionalParameters().isEmpty();
    }

    private static char closerOf(char opener) {
        Character c = CLOSERS.get(opener);
        return c == null ? 0 : c;
    }

    /** A token without the brackets, quotes and punctuation around it ({@code [--wait]} → {@code --wait}). */
    static String bare(String token) {
        return token.replaceAll("^[\\[({'\"`$<]+", "").replaceAll("[\\])}'\"`.,;:…]+$", "");
    }
}
