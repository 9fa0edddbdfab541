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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PureLayersTest keeps the deciding code pure (docs/design.md): model/ and plan/ may use the JDK and
 * Jackson, and nothing that reaches a framework, an engine, a database or the network.
 */
class PureLayersTest {

    static final List<String> FORBIDDEN = List.of(
            "io.quarkus", "jakarta.", "javax.", "com.github.dockerjava", "java.sql", "org.postgresql",
            "org.flywaydb", "io.agroal", "java.net", "org.apache.hc", "io.vertx", "org.jboss",
            "org.eclipse.microprofile", "io.smallrye", "mesh.host", "mesh.docker", "mesh.cli", "mesh.store",
            "mesh.controller", "mesh.install");
    static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    static final Pattern QUALIFIED = Pattern.compile("\\b((?:java\\.net|java\\.sql|jakarta|io\\.quarkus|com\\.github\\.dockerjava)\\.[\\w.]+)");

    static List<String> violations(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = IMPORT.matcher(source);
        while (m.find()) {
            String name = m.group(2);
            FORBIDDEN.stream().filter(name::startsWith).findFirst().ifPresent(f -> found.add(name));
        }
        Matcher q = QUALIFIED.matcher(source.replaceAll("(?m)^import .*$", ""));
        while (q.find()) {
            found.add(q.group(1));
        }
        return found;
    }

    @ParameterizedTest
    @ValueSource(strings = {"model", "plan"})
    void pureLayersImportNoFrameworkEngineDatabaseOrNetwork(String layer) throws IOException {
        Path dir = Path.of("src/main/java/mesh", layer);
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                violations(Files.readString(file)).forEach(v -> problems.add(dir.relativize(file) + " uses " + v));
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theCheckCatchesWhatItMustCatch() {
        String bad = "package mesh.plan;\nimport jakarta.inject.Inject;\nimport com.github.dockerjava.api.DockerClient;\n"
                + "import java.util.List;\nclass X { java.net.http.HttpClient c; }\n";
        assertEquals(List.of("jakarta.inject.Inject", "com.github.dockerjava.api.DockerClient", "java.net.http.HttpClient"),
                violations(bad));
    }
}
