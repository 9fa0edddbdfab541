package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ManifestClashesTest: what two files of one catalogue add cannot both hold, named by file and module. */
class ManifestClashesTest {

    static Manifests.Source source(String file, String module, String... components) {
        StringBuilder yaml = new StringBuilder("module: " + module + "\ncomponents:\n");
        for (String c : components) {
            yaml.append("  ").append(c).append(": {image: busybox}\n");
        }
        return new Manifests.Source(file, ManifestYaml.parse(file, yaml.toString()));
    }

    @Test
    void twoModulesWithAComponentOfOneNameAreNamedWithBothFiles() {
        assertEquals(List.of("b.yaml: component shared.server of module b is also a component of module a in a.yaml; "
                        + "component names are container names and must differ across modules"),
                Manifests.clashes(List.of(source("a.yaml", "a", "a.web", "shared.server"),
                        source("b.yaml", "b", "shared.server", "b.web"))));
    }

    @Test
    void oneModuleInTwoFilesIsNamedOnce() {
        assertEquals(List.of("two.yaml: module good is also defined in one.yaml"),
                Manifests.clashes(List.of(source("one.yaml", "good", "good.web"), source("two.yaml", "good", "good.web"))));
    }

    @Test
    void distinctModulesAndComponentsDoNotClash() {
        assertEquals(List.of(), Manifests.clashes(List.of(source("a.yaml", "a", "a.web"), source("b.yaml", "b", "b.web"))));
    }
}
