package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.Test;

/** ControllerSettingsTest: the store and the bootstrap token are required, every problem named at once. */
class ControllerSettingsTest {

    static Map<String, String> vars(String... kv) {
        Map<String, String> m = new HashMap<>(Map.of("MESH_STORE_URL", "jdbc:postgresql://h:5432/mesh",
                "MESH_CONTROLLER_TOKEN", "the-bootstrap-token"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void theDefaultsAndTheBootstrapToken() {
        ControllerSettings s = ControllerSettings.read(vars());
        assertEquals(new ControllerSettings("jdbc:postgresql://h:5432/mesh", "the-bootstrap-token",
                ControllerSettings.DEFAULT_PUSH_BUDGET, 0), s);
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        InvalidInput e = assertThrows(InvalidInput.class, () -> ControllerSettings.read(vars("MESH_STORE_URL", "mysql://h",
                "MESH_CONTROLLER_TOKEN", " ", "MESH_PUSH_BUDGET", "many", "MESH_CONTROLLER_EPOCH", "x")));
        assertEquals(List.of("MESH_STORE_URL must be a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DB), got 'mysql://h'",
                "MESH_CONTROLLER_TOKEN is not set (nor MESH_CONTROLLER_TOKEN_FILE): the controller refuses to serve without a token",
                "MESH_PUSH_BUDGET must be a whole number of containers",
                "MESH_CONTROLLER_EPOCH must be a whole number"), e.problems());
    }

    @Test
    void theTokenMayComeFromAFileSoThatNoManifestHoldsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("controller-token"), "from-the-file\n");
        Map<String, String> v = vars("MESH_CONTROLLER_TOKEN_FILE", file.toString());
        v.remove("MESH_CONTROLLER_TOKEN");
        assertEquals("from-the-file", ControllerSettings.read(v).token());
    }

    @Test
    void aTokenFileThatCannotServeIsNamedAndBothWaysAtOnceAreRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path empty = java.nio.file.Files.writeString(dir.resolve("empty"), " \n");
        java.nio.file.Path two = java.nio.file.Files.writeString(dir.resolve("two"), "a\nb\n");
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(dir.resolve("none").toString(), "MESH_CONTROLLER_TOKEN_FILE " + dir.resolve("none") + " cannot be read: no such file");
        cases.put(empty.toString(), "MESH_CONTROLLER_TOKEN_FILE " + empty + " must hold the token alone, on one line");
        cases.put(two.toString(), "MESH_CONTROLLER_TOKEN_FILE " + two + " must hold the token alone, on one line");
        cases.forEach((file, said) -> {
            Map<String, String> v = vars("MESH_CONTROLLER_TOKEN_FILE", file);
            v.remove("MESH_CONTROLLER_TOKEN");
            assertEquals(List.of(said), assertThrows(InvalidInput.class, () -> ControllerSettings.read(v)).problems());
        });
        InvalidInput both = assertThrows(InvalidInput.class, () -> ControllerSettings.read(vars("MESH_CONTROLLER_TOKEN_FILE",
                empty.toString())));
        assertEquals(List.of("MESH_CONTROLLER_TOKEN and MESH_CONTROLLER_TOKEN_FILE are both set: give one (the file keeps "
                + "the token out of every manifest and declaration)"), both.problems());
    }

    @Test
    void theSecretsKeyOfEarlierReleasesIsNoLongerRead() {
        assertEquals(ControllerSettings.read(vars()), ControllerSettings.read(vars("MESH_SECRETS_KEY", "short")),
                "MESH_SECRETS_KEY sealed the agent tokens, which the store no longer holds");
    }
}
