package mesh.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import mesh.testbed.PackagedMesh;
import mesh.testbed.PackagedMesh.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BundleCliIT drives {@code mesh bundle push} and {@code mesh bundle list} as the packaged
 * executable, against a real registry given with {@code --registry}, and the errors an operator
 * meets without one.
 */
class BundleCliIT {

    @TempDir
    Path tmp;

    @Test
    void pushPrintsThePinnedReferenceAndListShowsIt() throws Exception {
        try (RegistryFixture registry = new RegistryFixture()) {
            Path app = Files.createDirectories(tmp.resolve("app/bin"));
            Files.writeString(app.resolve("tool"), "#!/bin/sh\necho hello\n");
            Files.setPosixFilePermissions(app.resolve("tool"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(tmp.resolve("app/README"), "read me\n");

            Result pushed = PackagedMesh.run(Map.of(), "bundle", "push", tmp.resolve("app").toString(), "tools/hello:1",
                    "--entrypoint", "bin/tool", "--registry", registry.url);
            assertEquals(0, pushed.exit(), pushed.toString());
            String reference = pushed.out().strip();
            assertTrue(reference.matches("tools/hello@sha256:[0-9a-f]{64}"), pushed.toString());

            Result json = PackagedMesh.run(Map.of(), "bundle", "push", tmp.resolve("app").toString(), "tools/hello:2",
                    "--entrypoint", "bin/tool", "--registry", registry.url, "-o", "json");
            assertEquals(0, json.exit(), json.toString());
            JsonNode doc = BundleManifest.JSON.readTree(json.out());
            assertEquals(reference, doc.path("reference").asText(), "same content, same digest");
            assertEquals("bin/tool", doc.path("entrypoint").asText());
            assertEquals("2", doc.path("tag").asText());

            Result list = PackagedMesh.run(Map.of(), "bundle", "list", "--registry", registry.url);
            assertEquals(0, list.exit(), list.toString());
            String digest = reference.substring(reference.indexOf('@') + 1);
            assertEquals("NAME         TAG  DIGEST\ntools/hello  1    " + digest + "\ntools/hello  2    " + digest + "\n",
                    list.out(), list.toString());

            Result listJson = PackagedMesh.run(Map.of(), "bundle", "list", "--registry", registry.url, "-o", "json");
            assertEquals(0, listJson.exit(), listJson.toString());
            JsonNode listed = BundleManifest.JSON.readTree(listJson.out());
            assertEquals(2, listed.size());
            assertEquals(reference, listed.get(0).path("reference").asText());

            Result refused = PackagedMesh.run(Map.of(), "bundle", "push", tmp.resolve("app").toString(), "tools/hello:3",
                    "--registry", registry.url);
            assertEquals(1, refused.exit(), refused.toString());
            assertEquals("mesh: bundle tools/hello:3: say which file runs (--entrypoint PATH): the folder holds no executable"
                    + " file at its top\n", refused.err());
        }
    }

    @Test
    void withoutARegistryTheErrorSaysWhatToGive() {
        Result none = PackagedMesh.run(Map.of(), "bundle", "list");
        assertEquals(1, none.exit(), none.toString());
        assertEquals("mesh: no artifact store: give --registry URL (e.g. http://HOST:5000), or MESH_CONTROLLER and MESH_TOKEN"
                + " of a mesh whose roster names mesh-registry.internal\n", none.err());

        int port = PackagedMesh.freePort();
        Result noController = PackagedMesh.run(Map.of("MESH_CONTROLLER", "http://127.0.0.1:" + port, "MESH_TOKEN", "t"),
                "bundle", "list");
        assertEquals(1, noController.exit(), noController.toString());
        assertTrue(noController.err().startsWith("mesh: cannot reach the controller at http://127.0.0.1:" + port), noController.err());
        assertTrue(noController.err().endsWith("(or give the artifact store with --registry URL)\n"), noController.err());

        Result down = PackagedMesh.run(Map.of(), "bundle", "push", tmp.toString(), "x", "--registry", "http://127.0.0.1:" + port);
        assertEquals(1, down.exit(), down.toString());

        Result badName = PackagedMesh.run(Map.of(), "bundle", "push", tmp.toString(), "Bad:Name", "--registry", "http://127.0.0.1:1");
        assertEquals("mesh: 'Bad:Name': name 'Bad' must be lowercase letters and digits, separated by '.', '_', '-' or '/'\n",
                badName.err(), badName.toString());

        Result missing = PackagedMesh.run(Map.of(), "bundle", "push", tmp.resolve("nope").toString(), "x", "--registry",
                "http://127.0.0.1:1");
        assertEquals("mesh: bundle x:latest: " + tmp.resolve("nope") + " does not exist\n", missing.err(), missing.toString());

        Result help = PackagedMesh.run(Map.of(), "bundle", "--help");
        assertEquals(0, help.exit(), help.toString());
        assertTrue(help.out().contains("mesh bundle push ./mesh-runner mesh:0.1 --registry http://10.77.0.11:5000"), help.out());
    }
}
