package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Manifest;
import mesh.model.ManifestYaml;
import mesh.plan.UpgradeModules.Running;
import org.junit.jupiter.api.Test;

class UpgradeModulesTest {

    static final String NEW = "mesh-upgrade@sha256:" + "b".repeat(64);

    /** The controller's manifest as mesh install adds it: the template of the build, filled in. */
    static Manifest installed() throws IOException {
        String yaml;
        try (InputStream in = UpgradeModulesTest.class.getResourceAsStream("/install/mesh-controller.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("@CONTROLLER_BUNDLE@", "mesh-controller@sha256:" + "a".repeat(64)).replace("@ADDRESS@", "10.0.0.11")
                .replace("@EPOCH@", "3").replace("@STORE_URL@", "jdbc:postgresql://10.0.0.11:5432/mesh?sslmode=disable")
                .replaceAll("@[A-Z_]+@", "/var/lib/mesh/secret file: #1");
        return ManifestYaml.parse("mesh-controller.yaml", yaml);
    }

    @Test
    void theControllersManifestComesBackWithTheNewBundleAndNothingElseChanged() throws IOException {
        Manifest before = installed();
        Manifest after = ManifestYaml.parse("mesh-controller.yaml", UpgradeModules.controllerWith(before, NEW));
        Manifest.Component b = before.components().get("mesh-controller.serve");
        Manifest.Component a = after.components().get("mesh-controller.serve");
        assertEquals(NEW, a.bundle());
        assertEquals(new Manifest.Component(b.image(), NEW, b.args(), b.env(), b.binds(), b.volumes(), b.ports(), b.health(), b.after(),
                b.stopTimeoutSeconds(), b.secrets(), b.backup()), a);
        assertEquals(before.module(), after.module());
        assertEquals(before.components().keySet(), after.components().keySet());
    }

    @Test
    void aControllerManifestHoldingWhatIsNotWrittenBackIsRefusedNotDropped() throws IOException {
        Manifest m = installed();
        Manifest.Component c = m.components().get("mesh-controller.serve");
        Map<String, Manifest.Component> withVolume = new LinkedHashMap<>();
        withVolume.put("mesh-controller.serve", new Manifest.Component(null, c.bundle(), c.args(), c.env(), List.of(), Map.of("data", "/data"),
                c.ports(), null, List.of(), c.stopTimeoutSeconds(), Map.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UpgradeModules.controllerWith(new Manifest("mesh-controller", withVolume, Map.of()), NEW));
        assertTrue(e.getMessage().startsWith("component mesh-controller.serve of mesh-controller holds volumes, which mesh upgrade"
                + " does not write back"), e.getMessage());
    }

    @Test
    void aQuotedValueReadsBackAsWritten() {
        String odd = "a \"quoted\" \\ value: #1\twith\nlines and \u0001";
        Manifest m = ManifestYaml.parse("x.yaml", "module: q\ncomponents:\n  q.run:\n    bundle: b@sha256:" + "c".repeat(64)
                + "\n    env: {V: " + UpgradeModules.quoted(odd) + "}\n");
        assertEquals(odd, m.components().get("q.run").env().get("V"));
    }

    @Test
    void theOneOffIsAManifestOfOneProcessOfTheBundle() {
        Manifest m = ManifestYaml.parse("x.yaml", UpgradeModules.oneOff("g14", NEW));
        assertEquals("mesh-upgrade-g14", m.module());
        Manifest.Component c = m.components().get("mesh-upgrade-g14.run");
        assertEquals(NEW, c.bundle());
        assertEquals(List.of("host", "upgrade-self"), c.args());
    }

    @Test
    void aMoveDisturbsNothingUnlessAContainerIsReplacedOrAProcessRestarted() {
        List<Running> before = List.of(new Running("web.server", "web", "c1", 0), new Running("db.serve", "db", "p1", 41),
                new Running("mesh-controller.serve", "mesh-controller", "p2", 50), new Running("mesh-upgrade-n1.run", "mesh-upgrade-n1", "p3", 60));
        List<Running> same = List.of(new Running("web.server", "web", "c1", 0), new Running("db.serve", "db", "p1", 41),
                new Running("mesh-controller.serve", "mesh-controller", "p2", 50));
        assertEquals(List.of(), UpgradeModules.disturbed(before, same, List.of()));
        List<Running> moved = List.of(new Running("web.server", "web", "c9", 0), new Running("db.serve", "db", "p1", 42),
                new Running("mesh-controller.serve", "mesh-controller", "p2", 51));
        assertEquals(List.of("container web.server was replaced (c1 → c9)", "process db.serve was restarted (pid 41 → 42)"),
                UpgradeModules.disturbed(before, moved, List.of("mesh-controller")));
        assertEquals(List.of("web.server is gone"), UpgradeModules.disturbed(before.subList(0, 1), List.of(), List.of()));
    }
}
