package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GoodManifestsTest shows that every good manifest the project has (the example in
 * docs/manifest.md, the fixtures under src/test/resources/manifests, which copy the ones
 * ControllerInputIT, MeshE2EIT and MeshPlannerTest build) reads to exactly the same Manifest as
 * the reader before it, {@link LegacyManifestYaml}.
 */
class GoodManifestsTest {

    static final Path FIXTURES = Path.of("src/test/resources/manifests");

    static Stream<Arguments> goodManifests() throws IOException {
        Stream<Arguments> fixtures;
        try (Stream<Path> files = Files.list(FIXTURES)) {
            fixtures = files.filter(p -> p.toString().endsWith(".yaml")).sorted()
                    .map(p -> Arguments.of(p.getFileName().toString(), read(p))).toList().stream();
        }
        return Stream.concat(Stream.of(Arguments.of("docs/manifest.md", docsExample())), fixtures);
    }

    static String docsExample() {
        Matcher m = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(read(Path.of("docs/manifest.md")));
        assertTrue(m.find(), "docs/manifest.md has a ```yaml example");
        return m.group(1);
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodManifests")
    void readsToTheSameManifestAsBefore(String file, String yaml) throws Exception {
        assertEquals(LegacyManifestYaml.parse(yaml), ManifestYaml.parse(file, yaml));
    }

    @Test
    void theFixturesAreThere() throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES)) {
            assertTrue(files.count() >= 9, "the good fixtures are read from " + FIXTURES.toAbsolutePath());
        }
    }

    @Test
    void envNumbersAndBooleansAreTheirWrittenTextAndDurationsCarryTheirUnit() {
        Manifest m = ManifestYaml.parse("env.yaml", read(FIXTURES.resolve("env_numbers_and_booleans_as_text.yaml")));
        Manifest.Component api = m.components().get("settings.api");
        assertEquals(Map.of("PORT", "8080", "DEBUG", "true", "RATIO", "0.5", "EMPTY", "", "QUOTED", "yes"), api.env());
        assertEquals(2, api.stopTimeoutSeconds(), "1500ms waits 2 s");
        assertEquals(120, m.components().get("settings.worker").stopTimeoutSeconds());
        assertEquals(List.of("settings.api", "settings.worker"), List.copyOf(m.components().keySet()), "in file order");
    }

    @Test
    void argsTakeUnquotedNumbersAsWritten() {
        Manifest m = ManifestYaml.parse("a.yaml", "module: a\ncomponents:\n  a.web:\n    image: busybox\n    args: [httpd, -p, 8080]\n");
        assertEquals(List.of("httpd", "-p", "8080"), m.components().get("a.web").args());
    }

    @Test
    void aRouteMayNameItsDomainAndTheQuotedStarIsTheWildcardRoute() throws Exception {
        Manifest m = ManifestYaml.parse("wild.yaml", """
                module: wild
                components:
                  wild.web: {image: busybox, ports: [80]}
                routes:
                  "*": {component: wild.web, port: 80}
                  www: {component: wild.web, port: 80, domain: zurag.be}
                """);
        assertEquals(Map.of("*", new Manifest.Route("wild.web", 80, null), "www", new Manifest.Route("wild.web", 80, "zurag.be")),
                m.routes());
        assertEquals(m, DeclarationJson.MAPPER.readValue(DeclarationJson.write(m), Manifest.class), "as the store keeps it");
        assertTrue(DeclarationJson.write(ManifestYaml.parse("a.yaml", WEB_ROUTE)).indexOf("domain") < 0,
                "a route without a domain is stored as before");
    }

    static final String WEB_ROUTE = "module: a\ncomponents:\n  a.web: {image: busybox, ports: [80]}\nroutes:\n  www: {component: a.web, port: 80}\n";
}
