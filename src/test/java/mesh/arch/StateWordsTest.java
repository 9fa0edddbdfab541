package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * StateWordsTest keeps main code (the CLI first) off the words of an operation's state and step: a take, a backup
 * or a restore crosses the wire with {@code mesh.model.OperationState} and its step enum ({@code TakeStep},
 * a restore's too, and {@code BackupStep}), and code compares those, never their words ({@code "running".equals(t.state())},
 * {@code case "done" ->}). A word compared is a word that can be misspelt, or renamed on one side only; and once the field is an enum,
 * {@code "done".equals(b.lastState())} still compiles and is always false (the metrics' first version did that).
 */
class StateWordsTest {

    /** The words of every state and step an operation shows. */
    static final String WORD = "(running|done|rolled-back|failed|dry-run|preflight|pre-copy|fence|ticket|copy|verify|start"
            + "|switch|push|old-copy|stop-target|delete-copy|unfence|lose|restore|retain)";
    /** A state or step word compared: with equals (either side), or as a switch's case. */
    static final Pattern COMPARED = Pattern.compile(
            "\"" + WORD + "\"\\s*\\.\\s*equals\\s*\\(\\s*[\\w.()]*\\b\\w*([Ss]tate|[Ss]tep)\\b"
                    + "|\\b(state|step)\\b\\(?\\)?\\s*\\.\\s*equals\\s*\\(\\s*\"" + WORD + "\""
                    + "|case\\s+\"(running|done|rolled-back|failed|dry-run)\"");
    static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    /** Docker's edge: a container's state is the engine's own word ({@code running}, {@code exited}), not ours. */
    static final String ENGINE_WORDS = "mesh/docker/DockerEngine.java";

    static List<String> compared(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = COMPARED.matcher(COMMENT.matcher(source).replaceAll(" "));
        while (m.find()) {
            found.add(m.group().replaceAll("\\s+", ""));
        }
        return found;
    }

    @Test
    void noMainCodeComparesAStateOrStepByItsWord() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            if (!ENGINE_WORDS.equals(name)) {
                compared(source).forEach(c -> problems.add(name + ": " + c));
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void theScanCatchesWhatItMustCatch() {
        String bad = """
                class X {
                    boolean a(TakeView t) { return "running".equals(t.state()); }
                    boolean b(TakeView t, String step) { return "copy".equals(step) || "pre-copy".equals(step); }
                    boolean c(BackupView b) { return b.state().equals("done"); }
                    boolean e(BackupStatus b) { return !"done".equals(b.lastState()); }
                    String d(TakeView t) { return switch (t.state()) { case "rolled-back" -> "x"; default -> "y"; }; }
                    // a comment may say "running".equals(t.state())
                    boolean fine(TakeView t, String word) { return t.state() == OperationState.RUNNING && "json".equals(word); }
                }
                """;
        assertEquals(List.of("\"running\".equals(t.state", "\"copy\".equals(step", "\"pre-copy\".equals(step",
                "state().equals(\"done\"", "\"done\".equals(b.lastState", "case\"rolled-back\""), compared(bad));
    }
}
