package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.DeclarationJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CatalogueCheckTest: {@code mesh catalogue check} runs the controller's catalogue check offline.
 * It is driven as {@link MeshMain} runs a verb that serves nothing: the picocli tree alone, no
 * Quarkus boot, no controller, no token, no network.
 */
class CatalogueCheckTest {

    static final Path FIXTURES = Path.of("src/test/resources/manifests");
    static final Path FIVE_MISTAKES = FIXTURES.resolve("check_five_mistakes/shop.yaml");

    static CliRun mesh(String... args) {
        return CliRun.of(args);
    }

    /** Every YAML file under examples/ but Prometheus's own (examples/prometheus: a rule file and Alertmanager's). */
    static Stream<Path> examples() throws IOException {
        try (Stream<Path> all = Files.walk(Path.of("examples"))) {
            List<Path> manifests = all.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .filter(p -> !p.startsWith(Path.of("examples/prometheus"))).sorted().toList();
            assertFalse(manifests.isEmpty(), "examples/ holds manifests");
            return manifests.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleManifestIsGood(Path manifest) throws IOException {
        CliRun run = mesh("catalogue", "check", manifest.toString());
        assertEquals(ExitCodes.OK, run.exit(), run.err());
        assertEquals("", run.err());
        String module = mesh.model.ManifestYaml.moduleOf(Files.readString(manifest));
        assertEquals(List.of(manifest + ": module " + module + " is good: "), run.out().lines()
                .map(l -> l.substring(0, l.indexOf(" is good: ") + " is good: ".length())).toList(), run.out());
    }

    @Test
    void theExamplesFolderIsGoodAsOneAddOneLinePerModule() throws IOException {
        CliRun run = mesh("catalogue", "check", "examples/catalogue");
        assertEquals(ExitCodes.OK, run.exit(), run.err());
        assertEquals(examples().filter(p -> p.getParent().equals(Path.of("examples/catalogue"))).count(), run.out().lines().count(), run.out());
        assertEquals("examples/catalogue/hello.yaml: module hello is good: 1 component (hello.web), no route",
                run.out().lines().filter(l -> l.contains("hello.yaml")).findFirst().orElse(""));
    }

    @Test
    void aFileWithFiveMistakesHasAllFiveNamedWithLineAndColumn() {
        CliRun run = mesh("catalogue", "check", FIVE_MISTAKES.toString());
        assertEquals(ExitCodes.FAILED, run.exit());
        assertEquals("", run.out());
        String f = FIVE_MISTAKES.toString();
        assertEquals(List.of(
                f + ":3:9: module: not a valid name: \"my_shop\" has '_', which a DNS name cannot hold; use '-'",
                f + ":9:5: components.shop.web.helth: unknown field, did you mean 'health'?",
                f + ":7:13: components.shop.web.ports[0]: a number, got \"8080\"",
                f + ":8:19: components.shop.web.stop-timeout: must be a duration like 30s, 5m, 1h or 1h30m (a bare number is seconds), got \"5 minutes\"",
                f + ":11:20: routes.www.component: must name a component of this module, got \"shop.wbe\" (components: shop.web)",
                "mesh: 5 problems in 1 of 1 file; mesh catalogue add would refuse it and store nothing"), run.err().lines().toList());
    }

    @Test
    void aFolderIsCheckedAsOneAddWithWhatItsFilesCannotHoldTogether() {
        Path dir = FIXTURES.resolve("check_clashing_folder");
        CliRun run = mesh("catalogue", "check", dir.toString());
        assertEquals(ExitCodes.FAILED, run.exit());
        assertEquals(List.of(
                dir.resolve("shop.yaml") + ":4:3: component shop.web of module shop is also a component of module blog in "
                        + dir.resolve("blog.yaml") + ":4:3; component names are container names and must differ across modules",
                dir.resolve("shop.yaml") + ":6:3: route www.zurag.be of module shop is also a route of module blog in "
                        + dir.resolve("blog.yaml") + ":7:3; one name is served by one module, and a push with both running fails",
                dir.resolve("shop2.yaml") + ":2:9: module shop is also defined in " + dir.resolve("shop.yaml") + ":2:9",
                "mesh: 3 problems in 2 of 3 files; mesh catalogue add would refuse them all and store nothing"),
                run.err().lines().toList());
    }

    @Test
    void jsonIsOneDocumentWithTheModulesAndEveryProblem() throws Exception {
        CliRun bad = mesh("catalogue", "check", FIVE_MISTAKES.toString(), "-o", "json");
        assertEquals(ExitCodes.FAILED, bad.exit());
        JsonNode report = DeclarationJson.MAPPER.readTree(bad.out());
        assertFalse(report.get("ok").asBoolean());
        assertEquals(5, report.get("problems").size(), bad.out());
        assertEquals(0, report.get("modules").size());

        CliRun good = mesh("catalogue", "check", "examples/catalogue", "-o", "json");
        assertEquals(ExitCodes.OK, good.exit(), good.err());
        JsonNode ok = DeclarationJson.MAPPER.readTree(good.out());
        assertTrue(ok.get("ok").asBoolean());
        assertEquals("hello", ok.get("modules").get(0).get("module").asText());
        assertEquals(List.of("hello.web"), DeclarationJson.MAPPER.convertValue(ok.get("modules").get(0).get("components"), List.class));
    }

    @Test
    void aMissingFileOrAnEmptyFolderIsSaidInWords() throws IOException {
        CliRun missing = mesh("catalogue", "check", "no-such.yaml");
        assertEquals(ExitCodes.FAILED, missing.exit());
        assertEquals("mesh: cannot read no-such.yaml: no such file", missing.err().strip());
        Path empty = Files.createTempDirectory("no-manifests");
        CliRun none = mesh("catalogue", "check", empty.toString());
        assertEquals(ExitCodes.FAILED, none.exit());
        assertEquals("mesh: " + empty + " holds no *.yaml or *.yml manifest", none.err().strip());
    }

    @Test
    void theHelpSaysWhatItChecksWithExamples() {
        CliRun help = mesh("catalogue", "check", "--help");
        assertEquals(ExitCodes.OK, help.exit());
        assertTrue(help.out().startsWith("Usage: mesh catalogue check "), help.out());
        assertTrue(help.out().contains("Examples:\n  mesh catalogue check "), help.out());
        assertTrue(help.out().contains("no controller"), help.out());
    }

    /** A manifest given where a declaration belongs is named as one, with the verbs that take it; no JSON reader's words. */
    @Test
    void hostApplyOfAManifestSaysItIsAManifestAndPointsToTheCheck() throws IOException {
        Path state = Files.createTempDirectory("mesh-state");
        Path config = Files.writeString(state.resolve("host.env"), "MESH_HOST_STATE_DIR=" + state + "\n");
        Path manifest = Path.of("examples/catalogue/hello.yaml");
        CliRun run = mesh("host", "apply", "--dry-run", manifest.toString(), "--config", config.toString());
        assertEquals(ExitCodes.FAILED, run.exit());
        assertEquals(List.of("mesh: examples/catalogue/hello.yaml is a module manifest (module hello), not a declaration: "
                + "mesh host apply takes the JSON a controller pushes to one node (docs/declaration.md). Check the manifest with "
                + "'mesh catalogue check examples/catalogue/hello.yaml'; run it with 'mesh catalogue add examples/catalogue/hello.yaml',"
                + " 'mesh assign NODE hello' and 'mesh push'."), run.err().lines().toList());
        assertFalse(run.err().contains("Unrecognized token") || run.err().contains("JSON String"), run.err());
    }
}
