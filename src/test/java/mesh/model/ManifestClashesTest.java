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

    @Test
    void aClashPointsAtTheLineAndColumnInBothFilesWhenTheirTextIsKnown() {
        String one = "module: good\ncomponents:\n  good.web: {image: busybox}\n";
        String two = "# the same module again\nmodule: good\ncomponents:\n  good.api: {image: busybox}\n";
        assertEquals(List.of("two.yaml:2:9: module good is also defined in one.yaml:1:9"), Manifests.clashes(List.of(
                new Manifests.Source("one.yaml", ManifestYaml.parse("one.yaml", one), one),
                new Manifests.Source("two.yaml", ManifestYaml.parse("two.yaml", two), two))));
    }

    @Test
    void twoModulesWithARouteOfOneNameUnderOneDomainClash() {
        String a = "module: a\ncomponents:\n  a.web: {image: busybox, ports: [80]}\nroutes:\n  www: {component: a.web, port: 80, domain: zurag.be}\n";
        String b = "module: b\ncomponents:\n  b.web: {image: busybox, ports: [80]}\nroutes:\n"
                + "  api: {component: b.web, port: 80}\n  www: {component: b.web, port: 80, domain: zurag.be}\n";
        assertEquals(List.of("b.yaml:6:3: route www.zurag.be of module b is also a route of module a in a.yaml:5:3; "
                        + "one name is served by one module, and a push with both running fails"),
                Manifests.clashes(List.of(new Manifests.Source("a.yaml", ManifestYaml.parse("a.yaml", a), a),
                        new Manifests.Source("b.yaml", ManifestYaml.parse("b.yaml", b), b))));
    }

    /** Without a domain, R.D depends on where each module runs: only the push can tell. */
    @Test
    void routesOfOneNameWithoutADomainOrUnderTwoDomainsDoNotClashHere() {
        String a = "module: a\ncomponents:\n  a.web: {image: busybox, ports: [80]}\nroutes:\n  www: {component: a.web, port: 80}\n";
        String b = "module: b\ncomponents:\n  b.web: {image: busybox, ports: [80]}\nroutes:\n"
                + "  www: {component: b.web, port: 80, domain: zurag.be}\n";
        String c = "module: c\ncomponents:\n  c.web: {image: busybox, ports: [80]}\nroutes:\n"
                + "  www: {component: c.web, port: 80, domain: novox.be}\n";
        assertEquals(List.of(), Manifests.clashes(List.of(new Manifests.Source("a.yaml", ManifestYaml.parse("a.yaml", a), a),
                new Manifests.Source("b.yaml", ManifestYaml.parse("b.yaml", b), b),
                new Manifests.Source("c.yaml", ManifestYaml.parse("c.yaml", c), c))));
    }
}
