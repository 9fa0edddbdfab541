package mesh.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import mesh.bundle.HttpRegistry;
import mesh.bundle.RegistryFixture;
import org.junit.jupiter.api.Test;

/** StateBackupRegistryIT: a state backup pushed to a real registry (Distribution) comes back byte for byte. */
class StateBackupRegistryIT {

    @Test
    void aStateBackupPushedComesBackWhole() throws Exception {
        try (RegistryFixture fixture = new RegistryFixture()) {
            HttpRegistry registry = new HttpRegistry(fixture.url);
            byte[] artifact = "MESHSTATE\nnot really sealed, but bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Instant made = Instant.parse("2026-12-05T10:00:03Z");
            String ref = StateBackupRegistry.push(registry, artifact, made);
            assertEquals(fixture.url + "/mesh-state:mesh-state-20261205T100003Z", ref);
            assertEquals(List.of("mesh-state-20261205T100003Z"), registry.tags(StateBackupRegistry.REPOSITORY));
            assertArrayEquals(artifact, StateBackupRegistry.fetch(registry, "mesh-state-20261205T100003Z"));
            RuntimeException missing = assertThrows(RuntimeException.class, () -> StateBackupRegistry.fetch(registry, "nope"));
            assertTrue(missing.getMessage().contains("MANIFEST_UNKNOWN") || missing.getMessage().contains("nope"), missing.getMessage());
        }
    }
}
