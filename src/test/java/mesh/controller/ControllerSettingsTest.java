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
                "MESH_CONTROLLER_TOKEN is not set: the controller refuses to serve without a token",
                "MESH_PUSH_BUDGET must be a whole number of containers",
                "MESH_CONTROLLER_EPOCH must be a whole number"), e.problems());
    }

    @Test
    void theSecretsKeyOfEarlierReleasesIsNoLongerRead() {
        assertEquals(ControllerSettings.read(vars()), ControllerSettings.read(vars("MESH_SECRETS_KEY", "short")),
                "MESH_SECRETS_KEY sealed the agent tokens, which the store no longer holds");
    }
}
