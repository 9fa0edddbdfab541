package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * NativeReadyTest keeps main code buildable as a native executable (docs/design.md, "Native-ready"): no random source is made anywhere
 * but {@code mesh.trust.Entropy}, which makes its one when the program runs. A {@code new SecureRandom()} or
 * {@code new Random()} in a static field would be made while the executable is built (Quarkus initializes the
 * application's classes then) and kept in it, one seed for every copy; the builder refuses it, a quarter of an hour
 * into the build.
 */
class NativeReadyTest {

    static final Pattern NEW_RANDOM = Pattern.compile("new\\s+(java\\.security\\.|java\\.util\\.)?(SecureRandom|Random|SplittableRandom)\\s*\\(");
    static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");
    static final String THE_ONE_SOURCE = "mesh/trust/Entropy.java";

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
        try (Stream<Path> files = Files.walk(SourceScan.MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = SourceScan.MAIN.relativize(file).toString().replace('\\', '/');
                if (!name.equals(THE_ONE_SOURCE)) {
                    randomSources(Files.readString(file)).forEach(r -> problems.add(name + ": " + r));
                }
            }
        }
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
    }
}
