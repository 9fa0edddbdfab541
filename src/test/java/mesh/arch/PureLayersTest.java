package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PureLayersTest keeps the deciding code pure (docs/design.md): model/ and plan/ may use the JDK and
 * Jackson, and nothing that reaches a framework, an engine, a database or the network.
 */
class PureLayersTest {

    static final List<String> FORBIDDEN = List.of(
            "io.quarkus", "jakarta", "javax", "com.github.dockerjava", "java.sql", "org.postgresql",
            "org.flywaydb", "io.agroal", "java.net", "org.apache.hc", "io.vertx", "org.jboss",
            "org.eclipse.microprofile", "io.smallrye", "mesh.host", "mesh.docker", "mesh.cli", "mesh.store",
            "mesh.controller", "mesh.install", "mesh.api");

    static List<String> violations(String source) {
        return SourceScan.uses(source, FORBIDDEN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mesh.model", "mesh.plan"})
    void pureLayersImportNoFrameworkEngineDatabaseOrNetwork(String layer) throws IOException {
        assertEquals(List.of(), SourceScan.violations(layer, FORBIDDEN));
    }

    /** The values the engine edge and the digest are built from are pure, so they are in a scanned layer. */
    @Test
    void theRequestAndItsDigestAreInAPureLayer() {
        for (String pure : List.of("mesh/model/ContainerRequest.java", "mesh/model/SpecDigest.java",
                "mesh/model/ComponentSpec.java", "mesh/plan/HostDiff.java")) {
            assertTrue(Files.isRegularFile(SourceScan.MAIN.resolve(pure)), pure + " is not where the pure layers are scanned");
        }
    }

    @Test
    void theCheckCatchesWhatItMustCatch() {
        String bad = "package mesh.plan;\nimport jakarta.inject.Inject;\nimport com.github.dockerjava.api.DockerClient;\n"
                + "import java.util.List;\nclass X { java.net.http.HttpClient c; mesh.docker.Engine e; }\n";
        assertEquals(List.of("jakarta.inject.Inject", "com.github.dockerjava.api.DockerClient", "java.net.http.HttpClient",
                "mesh.docker.Engine"), violations(bad));
    }

    @Test
    void commentsAndStringsAreNotUses() {
        String fine = "package mesh.model;\n/** Unlike java.net.URI, or mesh.host.HostAgent. */\nclass X {\n"
                + "  String s = \"see mesh.cli.Output\"; // and java.sql.Connection\n  java.util.List<String> l;\n"
                + "  javaxFoo.bar b;\n}\n";
        assertEquals(List.of(), violations(fine));
    }
}
