package mesh.arch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * SourceScan reads the main sources of one package and says which names of other packages they
 * use, by import or written out in full in code (comments and string literals are not code). The
 * architecture tests (PureLayersTest, PackageArrowsTest) state their rules as forbidden prefixes
 * over it. Hand-written rather than ArchUnit: a few regexes over our own sources cover these rules
 * without adding a bytecode scanner to the build.
 */
final class SourceScan {

    static final Path MAIN = Path.of("src/main/java");
    static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    static final Pattern NOT_CODE = Pattern.compile(
            "(?s)/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"|(?m)^import [^\\n]*");

    private SourceScan() {
    }

    /** Every name in {@code source} that starts with one of {@code forbidden}: imports first, then qualified uses. */
    static List<String> uses(String source, List<String> forbidden) {
        List<String> found = new ArrayList<>();
        Matcher m = IMPORT.matcher(source);
        while (m.find()) {
            String name = m.group(2);
            if (forbidden.stream().anyMatch(f -> startsWith(name, f))) {
                found.add(name);
            }
        }
        String code = NOT_CODE.matcher(source).replaceAll(" ");
        for (String f : forbidden) {
            String prefix = f.endsWith(".") ? f.substring(0, f.length() - 1) : f;
            Matcher q = Pattern.compile("(?<![\\w.])(" + Pattern.quote(prefix) + "\\.[\\w.]+)").matcher(code);
            while (q.find()) {
                found.add(q.group(1));
            }
        }
        return found;
    }

    /** Whether {@code name} is {@code prefix} or inside it ({@code mesh.host} covers mesh.host.X, not mesh.hostile). */
    static boolean startsWith(String name, String prefix) {
        return prefix.endsWith(".") ? name.startsWith(prefix) : name.equals(prefix) || name.startsWith(prefix + ".");
    }

    /** Every main source by its name under src/main/java ({@code mesh/host/HostAgent.java}), in name order. */
    static java.util.SortedMap<String, String> mainSources() throws IOException {
        java.util.SortedMap<String, String> sources = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(MAIN.relativize(file).toString().replace('\\', '/'), Files.readString(file));
            }
        }
        return sources;
    }

    /** "FILE uses NAME" for every forbidden use in the main sources of a package (e.g. "mesh.plan"). */
    static List<String> violations(String pkg, List<String> forbidden) throws IOException {
        Path dir = MAIN.resolve(pkg.replace('.', '/'));
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                uses(Files.readString(file), forbidden).forEach(v -> problems.add(MAIN.relativize(file) + " uses " + v));
            }
        }
        return problems;
    }
}
