package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * NativeSuiteTest keeps the native suite ({@code scripts/native.d/suite}, what {@code scripts/native --suite} runs
 * against the native executable) whole: every IT class of the tree is either one of its entries or named in its
 * comment of the classes left out, so a new IT is placed on one side on purpose; every entry is an IT that exists;
 * and a class that raises an installed mesh ({@code @InstalledMeshTest}) is an entry, never left out.
 */
class NativeSuiteTest {

    static final Path SUITE = Path.of("scripts/native.d/suite");
    static final Path TESTS = Path.of("src/test/java");
    static final Pattern INSTALLED = Pattern.compile("(?m)^@InstalledMeshTest\\b");

    @Test
    void everyItIsAnEntryOrNamedAsLeftOutAndEveryInstalledMeshClassIsAnEntry() throws IOException {
        List<String> lines = Files.readAllLines(SUITE);
        Set<String> entries = new TreeSet<>();
        StringBuilder comments = new StringBuilder();
        for (String line : lines) {
            if (line.startsWith("#")) {
                comments.append(line).append('\n');
            } else if (!line.isBlank()) {
                entries.add(line.trim().split("\\s+")[0].split("#")[0]);
            }
        }
        Map<String, Path> its = new TreeMap<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            files.filter(f -> f.getFileName().toString().endsWith("IT.java"))
                    .forEach(f -> its.put(f.getFileName().toString().replace(".java", ""), f));
        }
        assertTrue(its.size() > 50, "found the ITs: " + its.keySet());

        Set<String> unknown = new TreeSet<>(entries);
        unknown.removeAll(its.keySet());
        assertEquals(Set.of(), unknown, "entries of " + SUITE + " that are no IT class of " + TESTS);

        Set<String> nowhere = new TreeSet<>();
        Set<String> installedLeftOut = new TreeSet<>();
        for (Map.Entry<String, Path> it : its.entrySet()) {
            boolean entry = entries.contains(it.getKey());
            if (!entry && !Pattern.compile("\\b" + it.getKey() + "\\b").matcher(comments).find()) {
                nowhere.add(it.getKey());
            }
            if (!entry && INSTALLED.matcher(Files.readString(it.getValue())).find()) {
                installedLeftOut.add(it.getKey());
            }
        }
        assertEquals(Set.of(), nowhere, "ITs " + SUITE + " neither runs nor names as left out (with why)");
        assertEquals(Set.of(), installedLeftOut, "classes that raise an installed mesh, left out of " + SUITE);
    }
}
