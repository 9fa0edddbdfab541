package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.Test;

/** ControllerSettingsTest: what the agent tokens are sealed with, MESH_SECRETS_KEY or the bootstrap token. */
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
    void withoutASecretsKeyTheBootstrapTokenSealsTheAgentTokens() {
        ControllerSettings s = ControllerSettings.read(vars());
        assertNull(s.secretsKey());
        assertEquals("the-bootstrap-token", s.sealSecret());
        assertEquals("the-bootstrap-token", ControllerSettings.read(vars("MESH_SECRETS_KEY", " ")).sealSecret(),
                "a blank key is no key");
    }

    @Test
    void aSecretsKeySealsThemWhenSet() {
        String key = "0123456789abcdef0123456789abcdef";
        assertEquals(key, ControllerSettings.read(vars("MESH_SECRETS_KEY", key + "\n")).sealSecret());
    }

    @Test
    void aShortSecretsKeyIsRefusedByName() {
        InvalidInput e = assertThrows(InvalidInput.class, () -> ControllerSettings.read(vars("MESH_SECRETS_KEY", "short")));
        assertEquals(List.of("MESH_SECRETS_KEY must be at least 32 characters (e.g. 64 hex digits of random bytes), or unset"),
                e.problems());
    }
}
