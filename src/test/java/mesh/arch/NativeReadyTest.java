package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * NativeReadyTest keeps main code buildable as a native executable (docs/design.md, "Native-ready"). Quarkus initializes
 * the application's classes while the executable is built and keeps what their static fields hold; the builder refuses
 * some of it, a quarter of an hour into a build. So no random source is made anywhere but {@code mesh.trust.Entropy},
 * which makes its one when the program runs (one kept would start from the same seed in every copy), and a static
 * {@code HttpClient} lives in a holder class that native-image.properties initializes at run time (the JDK's client
 * cannot be kept: it is initialized at run time).
 */
class NativeReadyTest {

    static final Pattern NEW_RANDOM = Pattern.compile("new\\s+(java\\.security\\.|java\\.util\\.)?(SecureRandom|Random|SplittableRandom)\\s*\\(");
    static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    static final String THE_ONE_SOURCE = "mesh/trust/Entropy.java";
    static final Pattern STATIC_CLIENT = Pattern.compile("static\\s+(final\\s+)?(java\\.net\\.http\\.)?HttpClient\\s+\\w+\\s*=");
    static final Path PROPERTIES = Path.of("src/main/resources/META-INF/native-image/mesh/mesh/native-image.properties");

    static List<String> randomSources(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = NEW_RANDOM.matcher(COMMENT.matcher(source).replaceAll(" "));
        while (m.find()) {
            found.add(m.group().replaceAll("\\s+", ""));
        }
        return found;
    }

    @Test
    void noMainCodeMakesARandomSourceButEntropy() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            if (!name.equals(THE_ONE_SOURCE)) {
                randomSources(source).forEach(r -> problems.add(name + ": " + r));
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void everyStaticHttpClientIsHeldByAClassInitializedAtRunTime() throws IOException {
        String args = Files.readString(PROPERTIES).replace("\\\n", "");
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            String type = name.substring(0, name.length() - ".java".length()).replace('/', '.');
            if (STATIC_CLIENT.matcher(COMMENT.matcher(source).replaceAll(" ")).find() && !args.contains(type + "$")) {
                problems.add(name + " holds a static HttpClient, and native-image.properties initializes none of "
                        + type + "'s nested classes at run time");
            }
        });
        assertEquals(List.of(), problems);
    }

    static final Pattern RESOURCE = Pattern.compile("getResourceAsStream\\(\\s*\"/([^\"]+)\"\\s*(\\+)?");

    /**
     * Every resource main code reads ({@code getResourceAsStream("/…")}, a name built from a literal folder counting
     * as a file in it) is kept in the native executable: a glob of {@code quarkus.native.resources.includes} matches it.
     * Without it the executable runs and finds nothing (a native install stopped: "this mesh lacks its built-in
     * manifest mesh-store").
     */
    @Test
    void everyResourceMainCodeReadsIsKeptInTheNativeExecutable() throws IOException {
        java.util.Properties app = new java.util.Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            app.load(in);
        }
        List<java.nio.file.PathMatcher> kept = java.util.Arrays.stream(app.getProperty("quarkus.native.resources.includes", "")
                .split(",")).map(String::strip).filter(g -> !g.isEmpty())
                .map(g -> java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((file, source) -> {
            Matcher m = RESOURCE.matcher(source);
            while (m.find()) {
                String name = m.group(2) == null ? m.group(1) : m.group(1) + "any.yaml";
                if (kept.stream().noneMatch(g -> g.matches(Path.of(name)))) {
                    problems.add(file + " reads " + m.group(1) + (m.group(2) == null ? "" : "…")
                            + ", which no glob of quarkus.native.resources.includes keeps");
                }
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void theScanCatchesWhatItMustCatch() {
        String bad = """
                class X {
                    static final SecureRandom A = new SecureRandom();
                    static final java.util.Random B = new java.util.Random (7);
                    byte[] c() { new java.security.SecureRandom().nextBytes(x); }
                    // a comment may say new SecureRandom()
                    RandomAccessFile fine = new RandomAccessFile(f, "r");
                }
                """;
        assertEquals(List.of("newSecureRandom(", "newjava.util.Random(", "newjava.security.SecureRandom("), randomSources(bad));
        assertTrue(STATIC_CLIENT.matcher("private static final HttpClient HTTP = HttpClient.newBuilder()").find());
        assertTrue(STATIC_CLIENT.matcher("static java.net.http.HttpClient http = null;").find());
        assertFalse(STATIC_CLIENT.matcher("private final HttpClient http = HttpClient.newHttpClient();").find());
    }
}
