package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mesh.cli.MeshCommandLine;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * DocsMatchCommandsTest holds docs/cli.md and README.md to the command tree the executable builds
 * (MeshCommandLine, every verb and group by its full path, {@code node add}, {@code catalogue check}):
 * docs/cli.md names every verb and every visible option of each, and neither page names, in its
 * code, a verb or an option that does not exist. What a page's code says is read by DocMentions.
 * Each failure names the page and line, or the verb and option, to fix.
 */
class DocsMatchCommandsTest {

    static final Path CLI_MD = Path.of("docs/cli.md");
    static final Path README = Path.of("README.md");

    /** The options every verb has, documented once in cli.md's Conventions table, not under each verb. */
    static final Set<String> CONVENTIONS = Set.of("-h", "--help", "-V", "--version", "-o", "--output");

    /**
     * Options the pages name that are not mesh's: each is another program's, written where the page
     * talks about that program without repeating its name in the same code span.
     */
    static final Set<String> NOT_MESH = Set.of(
            "--print-home");   // README: `scripts/native --toolchain` stops there, `--print-home` prints the home

    /**
     * Words after {@code mesh} in the pages' code that are not a verb and not meant as one: a line mesh prints, or
     * a comment's sentence that wraps onto "mesh".
     */
    static final Set<String> NOT_VERBS = Set.of(
            "host agent",   // cli.md: `mesh host agent for node N: …`, the line host serve prints at start
            "here");        // README: `# … raise a one-node` / `# mesh here with …`, a comment's sentence

    static final CommandLine ROOT = MeshCommandLine.create(CommandLine.defaultFactory());

    /** Every verb of the tree by its full path, parents before their verbs. */
    static Map<String, CommandLine> verbs() {
        Map<String, CommandLine> verbs = new LinkedHashMap<>();
        walk(ROOT, "", verbs);
        return verbs;
    }

    private static void walk(CommandLine cmd, String path, Map<String, CommandLine> into) {
        for (Map.Entry<String, CommandLine> e : cmd.getSubcommands().entrySet()) {
            if (e.getKey().equals(e.getValue().getCommandName())) {
                String sub = path.isEmpty() ? e.getKey() : path + " " + e.getKey();
                into.put(sub, e.getValue());
                walk(e.getValue(), sub, into);
            }
        }
    }

    @Test
    void cliMdNamesEveryVerb() throws IOException {
        String md = Files.readString(CLI_MD);
        DocMentions.Page page = DocMentions.read("docs/cli.md", md, ROOT);
        Set<String> headings = headings(md).keySet();
        List<String> missing = new ArrayList<>();
        for (String verb : verbs().keySet()) {
            boolean named = headings.stream().anyMatch(h -> (h + " ").startsWith(verb + " "))
                    || page.mentions().stream().anyMatch(m -> (m.path() + " ").startsWith(verb + " "));
            if (!named) {
                missing.add("mesh " + verb);
            }
        }
        assertEquals(List.of(), missing, "verbs docs/cli.md does not name (a '## VERB' heading or a `mesh VERB …` in code)");
    }

    @Test
    void cliMdNamesEveryOptionOfEveryVerb() throws IOException {
        String md = Files.readString(CLI_MD);
        DocMentions.Page page = DocMentions.read("docs/cli.md", md, ROOT);
        Map<String, String> sections = headings(md);
        String conventions = sections.getOrDefault("Conventions", "");
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, CommandLine> verb : verbs().entrySet()) {
            String section = sectionOf(verb.getKey(), sections);
            for (OptionSpec o : verb.getValue().getCommandSpec().options()) {
                if (o.hidden()) {
                    continue;
                }
                for (String name : o.names()) {
                    boolean documented = CONVENTIONS.contains(name) && names(conventions, name)
                            || names(section, name)
                            || page.mentions().stream().anyMatch(m -> m.path().equals(verb.getKey()) && m.options().contains(name));
                    if (!documented) {
                        missing.add("mesh " + verb.getKey() + " " + name);
                    }
                }
            }
        }
        assertEquals(List.of(), missing, "options docs/cli.md does not give (in the verb's section or a `mesh VERB … OPTION`)");
    }

    @Test
    void cliMdAndReadmeNameNoVerbOrOptionThatDoesNotExist() throws IOException {
        Set<String> everyOption = new TreeSet<>();
        verbs().values().forEach(v -> v.getCommandSpec().options().forEach(o -> everyOption.addAll(List.of(o.names()))));
        List<String> wrong = new ArrayList<>();
        for (Path file : List.of(CLI_MD, README)) {
            DocMentions.Page page = DocMentions.read(file.toString(), Files.readString(file), ROOT);
            page.mentions().forEach(m -> m.problems().stream().filter(p -> NOT_VERBS.stream().noneMatch(n -> p.equals("'mesh " + n + "' is no verb")))
                    .forEach(p -> wrong.add(m.file() + ":" + m.line() + ": " + p)));
            page.options().stream().filter(o -> !everyOption.contains(o.option()) && !NOT_MESH.contains(o.option()))
                    .forEach(o -> wrong.add(o.file() + ":" + o.line() + ": no verb has an option " + o.option()));
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void readmeUsageNamesEveryVerb() throws IOException {
        String readme = Files.readString(README);
        String usage = headings(readme).getOrDefault("Usage", "");
        DocMentions.Page page = DocMentions.read("README.md", usage, ROOT);
        List<String> missing = new ArrayList<>();
        for (String verb : verbs().keySet()) {
            boolean topLevel = !verb.contains(" ");
            boolean onlyChildOfAGroup = !topLevel && verb.split(" ").length == 2
                    && ROOT.getSubcommands().get(verb.substring(0, verb.indexOf(' '))).getSubcommands().size() == 1;
            if ((topLevel || onlyChildOfAGroup) && page.mentions().stream().noneMatch(m -> (m.path() + " ").startsWith(verb + " "))) {
                missing.add("mesh " + verb);
            }
        }
        assertEquals(List.of(), missing, "verbs README.md's usage block leaves out");
    }

    /** The reader itself finds what is wrong, and reads a sentence and another program as neither. */
    @Test
    void theReaderFindsAVerbAndAnOptionThatDoNotExist() {
        String page = String.join("\n",
                "Run `mesh nodes list`, `mesh node frob`, or `mesh push --wait --wait-timeout 5`",
                "and `mesh logs web --lines 10`; `--no-such-flag` and `push --tail 3`.",
                "",
                "```",
                "mesh token create|nope NAME      mesh take NODE MODULE --dry-run",
                "curl --cacert ca.pem https://x/  # mesh status --refresh",
                "```",
                "Fine: `this mesh runs 2 builds`, `mesh -o json status`, `mesh node -o json list`,",
                "`(mesh host apply)`, `--timeout`, `mesh completion bash|zsh`, `mesh VERB --help`.");
        DocMentions.Page read = DocMentions.read("p.md", page, ROOT);
        List<String> problems = new ArrayList<>();
        read.mentions().forEach(m -> m.problems().forEach(p -> problems.add(m.line() + ": " + p)));
        assertEquals(List.of(
                "1: 'mesh nodes' is no verb",
                "1: 'mesh node frob' is no verb",
                "1: 'mesh push' has no option --wait-timeout (a hidden old name: a synopsis uses the current one)",
                "2: 'mesh logs' has no option --lines",
                "2: 'mesh push' has no option --tail",
                "5: 'mesh token nope' is no verb"), problems);
        assertEquals(List.of("--no-such-flag", "--timeout"), read.options().stream().map(DocMentions.Standalone::option).toList());
        assertEquals(List.of("", "node", "push", "logs", "push", "token", "take", "status", "status", "node list", "host apply",
                "completion", ""), read.mentions().stream().map(DocMentions.Mention::path).toList());
    }

    /** Each heading's text (without its #s) and the text under it, down to the next heading of its level or higher. */
    static Map<String, String> headings(String md) {
        Map<String, String> sections = new LinkedHashMap<>();
        Matcher h = Pattern.compile("(?m)^(#{1,6}) (.+)$").matcher(md);
        List<int[]> at = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        while (h.find()) {
            at.add(new int[] {h.start(), h.group(1).length(), h.end()});
            titles.add(h.group(2).strip());
        }
        for (int i = 0; i < at.size(); i++) {
            int end = md.length();
            for (int j = i + 1; j < at.size(); j++) {
                if (at.get(j)[1] <= at.get(i)[1]) {
                    end = at.get(j)[0];
                    break;
                }
            }
            sections.putIfAbsent(titles.get(i), md.substring(at.get(i)[2], end));
        }
        return sections;
    }

    /** The section of a verb: under its own heading, else under its nearest group's. */
    static String sectionOf(String verb, Map<String, String> sections) {
        for (String v = verb; ; v = v.substring(0, v.lastIndexOf(' '))) {
            if (sections.containsKey(v)) {
                return sections.get(v);
            }
            if (!v.contains(" ")) {
                return "";
            }
        }
    }

    /** Whether {@code text} holds the option {@code name} as a whole word ({@code --wait}, not {@code --wait-timeout}). */
    static boolean names(String text, String name) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])").matcher(text).find();
    }
}
