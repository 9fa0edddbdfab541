package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import mesh.model.InvalidInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** StorePasswordFileTest: the controller's store password from MESH_STORE_PASSWORD_FILE (docs/trust.md, "Secrets"). */
class StorePasswordFileTest {

    @Test
    void theFileGivesThePasswordAndTheVariableStillWorks(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("store-password"), "from-the-file\n");
        assertEquals("from-the-file", ServeMode.storePassword(Map.of("MESH_STORE_PASSWORD_FILE", file.toString())));
        assertEquals("plain", ServeMode.storePassword(Map.of("MESH_STORE_PASSWORD", "plain")));
        assertEquals("from-the-file", ServeMode.CONTROLLER.properties(Map.of("MESH_STORE_URL", "jdbc:postgresql://h/m",
                "MESH_STORE_PASSWORD_FILE", file.toString(), "MESH_PLAIN_HTTP", "yes")).get("quarkus.datasource.password"));
    }

    @Test
    void bothOrAMissingFileAreRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("store-password"), "x\n");
        InvalidInput both = assertThrows(InvalidInput.class, () -> ServeMode.storePassword(Map.of(
                "MESH_STORE_PASSWORD_FILE", file.toString(), "MESH_STORE_PASSWORD", "y")));
        assertTrue(both.getMessage().contains("both set"), both.getMessage());
        InvalidInput missing = assertThrows(InvalidInput.class, () -> ServeMode.storePassword(Map.of(
                "MESH_STORE_PASSWORD_FILE", dir.resolve("nope").toString())));
        assertTrue(missing.getMessage().contains("nope cannot be read: no such file"), missing.getMessage());
    }
}
