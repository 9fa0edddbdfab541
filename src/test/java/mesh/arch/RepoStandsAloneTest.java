package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * RepoStandsAloneTest keeps the repo readable on its own (docs/design.md, "How the code is
 * written"): no text file points to a path of one machine or to a document outside the repo, and a
 * numbered reference (an invariant, an issue, a field report or note) stands within two lines of a
 * link into docs/ that explains it. It fails naming file:line for each one that does not.
 */
class RepoStandsAloneTest {

    /** Rule is one kind of reference: what it is called in a failure, and whether a docs/ link nearby explains it. */
    record Rule(String what, Pattern pattern, boolean explainedByLink) {
    }

    static final Rule INVARIANT = new Rule("an invariant by number",
            Pattern.compile("\\binvariants?\\s+#?\\d", Pattern.CASE_INSENSITIVE), true);
    static final List<Rule> RULES = List.of(
            new Rule("a path outside the repo", Pattern.compile("\\.\\./shared"), false),
            new Rule("a path of one machine", Pattern.compile("/work/"), false),
            new Rule("a document that is not in the repo", Pattern.compile("\\b(DESIGN|STYLE|TESTBED)\\.md\\b"), false),
            new Rule("a \"must show\" reference", Pattern.compile("must show", Pattern.CASE_INSENSITIVE), false),
            new Rule("a field report or note by number",
                    Pattern.compile("\\bfield\\s+(reports?|notes?)\\s+#?\\d", Pattern.CASE_INSENSITIVE), true),
            new Rule("an issue by number", Pattern.compile("\\bissues?\\s+#?\\d", Pattern.CASE_INSENSITIVE), true),
            INVARIANT);

    /** How many lines above and below a reference a link into docs/ may stand. */
    static final int NEAR = 2;
    static final String DESIGN = "docs/design.md";
    static final Set<String> SKIPPED_DIRS = Set.of("target", ".git", ".idea", ".mvn/wrapper");
    static final Set<String> SKIPPED_FILES = Set.of("mvnw", "mvnw.cmd",
            // this file spells out the patterns it looks for
            "src/test/java/mesh/arch/RepoStandsAloneTest.java");
    /** Applied migrations are never edited: Flyway checksums them and refuses a store whose copy changed. */
    static final String MIGRATIONS = "src/main/resources/db/migration/";

    /** Every reference in one file's text that does not stand on its own, as "file:line: what: the line". */
    static List<String> problems(String file, String text) {
        List<String> found = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            for (Rule rule : RULES) {
                if (rule.pattern().matcher(lines[i]).find() && !(rule.explainedByLink() && explained(file, lines, i, rule))) {
                    found.add(file + ":" + (i + 1) + ": " + rule.what() + (rule.explainedByLink() ? " with no link into docs/" : "")
                            + ": " + lines[i].strip());
                }
            }
        }
        return found;
    }

    /**
     * Whether a link into docs/ stands within {@link #NEAR} lines. Inside docs/ a page links its
     * sibling as design.md; the design itself is where the invariants are numbered.
     */
    static boolean explained(String file, String[] lines, int at, Rule rule) {
        if (rule == INVARIANT && file.equals(DESIGN)) {
            return true;
        }
        for (int i = Math.max(0, at - NEAR); i <= Math.min(lines.length - 1, at + NEAR); i++) {
            if (lines[i].contains("docs/") || file.startsWith("docs/") && lines[i].contains("design.md")) {
                return true;
            }
        }
        return false;
    }

    /** The repo's text files, as paths relative to its root with '/' separators. */
    static List<String> textFiles(Path root) throws IOException {
        List<String> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                String name = root.relativize(p).toString().replace('\\', '/');
                boolean skipped = SKIPPED_DIRS.stream().anyMatch(d -> name.equals(d) || name.startsWith(d + "/"))
                        || SKIPPED_FILES.contains(name) || name.startsWith(MIGRATIONS)
                        || name.endsWith(".aot") || name.endsWith(".log") || name.endsWith(".iml");
                if (!skipped && !binary(Files.readAllBytes(p))) {
                    files.add(name);
                }
            }
        }
        return files;
    }

    static boolean binary(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return true;
            }
        }
        return false;
    }

    @Test
    void nothingInTheRepoPointsOutsideItOrGoesUnexplained() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        List<String> files = textFiles(root);
        assertTrue(files.contains("README.md") && files.contains(DESIGN) && files.contains("pom.xml"),
                "run from the project's root, which holds README.md, docs/design.md and pom.xml: " + root);
        List<String> problems = new ArrayList<>();
        for (String file : files) {
            problems.addAll(problems(file, Files.readString(root.resolve(file), StandardCharsets.UTF_8)));
        }
        assertTrue(problems.isEmpty(), () -> problems.size() + " references do not stand on their own; point into docs/"
                + " instead:\n" + String.join("\n", problems));
    }

    @Test
    void theCheckCatchesEachPattern() {
        String text = String.join("\n",
                "See `../shared/DESIGN.md` for the design.",
                "# Recipes: /work/shared/TESTBED.md.",
                "keeps the code pure (STYLE.md)",
                "the corpus of \"must show\" 5",
                "in the mesh from replacing it (field report 003).",
                "the names of the Field Reports 3 and 4",
                "taken, not assigned (field note 150)",
                "the goal (issue 4)",
                "fixed in issue #12",
                "before the push is acknowledged (invariant 6)",
                "DESIGN invariants 6, 7, 8");
        List<String> found = problems("src/main/java/mesh/X.java", text);
        assertEquals(List.of(
                "src/main/java/mesh/X.java:1: a path outside the repo: See `../shared/DESIGN.md` for the design.",
                "src/main/java/mesh/X.java:1: a document that is not in the repo: See `../shared/DESIGN.md` for the design.",
                "src/main/java/mesh/X.java:2: a path of one machine: # Recipes: /work/shared/TESTBED.md.",
                "src/main/java/mesh/X.java:2: a document that is not in the repo: # Recipes: /work/shared/TESTBED.md.",
                "src/main/java/mesh/X.java:3: a document that is not in the repo: keeps the code pure (STYLE.md)",
                "src/main/java/mesh/X.java:4: a \"must show\" reference: the corpus of \"must show\" 5",
                "src/main/java/mesh/X.java:5: a field report or note by number with no link into docs/: "
                        + "in the mesh from replacing it (field report 003).",
                "src/main/java/mesh/X.java:6: a field report or note by number with no link into docs/: "
                        + "the names of the Field Reports 3 and 4",
                "src/main/java/mesh/X.java:7: a field report or note by number with no link into docs/: "
                        + "taken, not assigned (field note 150)",
                "src/main/java/mesh/X.java:8: an issue by number with no link into docs/: the goal (issue 4)",
                "src/main/java/mesh/X.java:9: an issue by number with no link into docs/: fixed in issue #12",
                "src/main/java/mesh/X.java:10: an invariant by number with no link into docs/: "
                        + "before the push is acknowledged (invariant 6)",
                "src/main/java/mesh/X.java:11: an invariant by number with no link into docs/: DESIGN invariants 6, 7, 8"),
                found);
    }

    @Test
    void aNumberedReferenceIsExplainedByALinkIntoDocsWithinTwoLines() {
        String near = "/**\n * names follow take (invariant 4,\n *\n * see docs/design.md)\n */";
        assertEquals(List.of(), problems("src/main/java/mesh/X.java", near));
        String far = "// invariant 4\n//\n//\n// docs/design.md";
        assertEquals(List.of("src/main/java/mesh/X.java:1: an invariant by number with no link into docs/: // invariant 4"),
                problems("src/main/java/mesh/X.java", far));
        assertEquals(List.of(), problems("src/main/java/mesh/X.java", "// docs/design.md, 'the incident'\n// issue 3"));
    }

    @Test
    void insideDocsTheDesignExplainsItsOwnInvariantsAndSiblingsLinkItByName() {
        assertEquals(List.of(), problems(DESIGN, "the binders are replaced (invariant 1)"));
        assertEquals(List.of("docs/design.md:1: an issue by number with no link into docs/: as issue 4 said"),
                problems(DESIGN, "as issue 4 said"));
        assertEquals(List.of(), problems("docs/declaration.md", "exactly its binders ([design.md](design.md), invariant 2)"));
        assertEquals(List.of("docs/declaration.md:1: an invariant by number with no link into docs/: invariant 2"),
                problems("docs/declaration.md", "invariant 2"));
        assertEquals(List.of("docs/cli.md:1: a path of one machine: see /work/docs/design.md"),
                problems("docs/cli.md", "see /work/docs/design.md"));
    }
}
