package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * MessageBranchTest keeps control flow off English (docs/design.md, "How the code is written"): no
 * main code decides by testing an error message's text with {@code .contains("…")},
 * {@code .startsWith("…")} or {@code .endsWith("…")}; it branches on a refusal's reason
 * ({@code mesh.wire.Reason}), a typed failure, or a field. A message is any text called a message, an
 * error, a refusal, a problem or a why, or an exception's {@code getMessage()}.
 */
class MessageBranchTest {

    /** A message-like receiver, then a text test with a string literal. */
    static final Pattern BRANCH = Pattern.compile(
            "(?i)(getMessage\\(\\)|error\\(\\)|\\b\\w*(message|error|refusal|problem|why)\\w*\\b)\\s*\\.\\s*"
                    + "(contains|startsWith|endsWith)\\s*\\(\\s*\"");
    static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    /**
     * Where a third party's message is the only signal there is (no code, no type), read in one place each,
     * with why. Our own servers' refusals are never on this list: they carry a reason.
     */
    static final Map<String, String> LIBRARY_WORDS = Map.of(
            "mesh/model/DeclarationJson.java", "Jackson says a null for a primitive only in its message's words",
            "mesh/model/ManifestYaml.java", "SnakeYAML says a layout problem only in its message's words");

    static List<String> branches(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = BRANCH.matcher(COMMENT.matcher(source).replaceAll(" "));
        while (m.find()) {
            found.add(m.group().replaceAll("\\s+", ""));
        }
        return found;
    }

    @Test
    void noMainCodeBranchesOnAMessagesText() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            if (!LIBRARY_WORDS.containsKey(name)) {
                branches(source).forEach(b -> problems.add(name + ": " + b));
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void theScanCatchesWhatItMustCatch() {
        String bad = """
                class X {
                    boolean a(Exception e) { return e.getMessage().contains("another push"); }
                    boolean b(ApiError error) { return error.error().startsWith("this is a host agent"); }
                    boolean c(String refusal) { return refusal != null && refusal.contains("unknown field 'push'"); }
                    boolean d(String why) { return why.startsWith ( "not asked"); }
                    // a comment may say message.contains("x")
                    boolean fine(String path, String message) { return path.startsWith("/") && message.equals(path); }
                }
                """;
        assertEquals(List.of("getMessage().contains(\"", "error().startsWith(\"", "refusal.contains(\"",
                "why.startsWith(\""), branches(bad));
    }
}
