package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeclarationJsonTest {

    static String fixture(String name) throws IOException {
        try (InputStream in = DeclarationJsonTest.class.getResourceAsStream("/declarations/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theDocumentedExampleParsesAndRoundTrips() throws IOException {
        Declaration d = DeclarationJson.parse(fixture("declaration_with_binds.json"));
        assertEquals("novox", d.node());
        assertEquals(3, d.components().size());
        ComponentSpec gitea = d.component("gitea.server").orElseThrow();
        assertEquals("10.77.0.11", gitea.hosts().get("mesh-store.internal"));
        assertEquals(30, gitea.stopTimeout());
        assertEquals(d, DeclarationJson.parse(DeclarationJson.write(d)));
    }

    /** Each bad declaration is refused with a message that names what was wrong. */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\"}]}|component a: image: is required",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"imgae\":\"x\"}]}|unknown field 'imgae' in components[0]",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"ports\":[\"80\"]}]}|field 'components[0].ports[0]'",
        "{\"node\":\"n1\",\"generation\":\"7\",\"components\":[]}|field 'generation'",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":5}]}|field 'components[0].image'",
        "{\"node\":\"n1\",\"generation\":0}|generation: must be 1 or more",
        "{\"generation\":1}|node: must be a name",
        "{\"node\":\"n1\",\"generation\":1,|malformed JSON",
        "{\"node\":\"n1\",\"generation\":1} trailing|malformed JSON",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"hosts\":{\"db.internal\":\"nowhere\"}}]}|hosts: 'db.internal' must map to an IP address",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"after\":[\"b\"]}]}|after: 'b' is not a component",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"after\":[\"b\"]},{\"module\":\"m\",\"name\":\"b\",\"image\":\"x\",\"after\":[\"a\"]}]}|cycle: a -> b -> a",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\"},{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\"}]}|component a: declared twice",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"ports\":[80]},{\"module\":\"m\",\"name\":\"b\",\"image\":\"x\",\"ports\":[80]}]}|port 80 is already published by a",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"volumes\":{\"data\":\"relative\"}}]}|volumes: path for 'data' must be absolute",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"health\":{\"http\":\"/\"}}]}|health.port: an HTTP health check needs a port",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a b\",\"image\":\"x\"}]}|name: must be letters",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"stopTimeoutSeconds\":-1}]}|stopTimeoutSeconds: must be 0 to 3600",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"replace\":\"start-first\",\"volumes\":{\"data\":\"/data\"},\"health\":{\"command\":[\"true\"]}}]}|replace: must be start-first, on a container without volumes and with a health check",
        "{\"node\":\"n1\",\"generation\":1,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\",\"replace\":\"sideways\"}]}|replace: must be start-first",
        "''|the declaration is empty",
        "{\"node\":\"n1\"}|field 'generation': is required",
        "{\"node\":\"n1\",\"generation\":1,\"components\":{}}|field 'components': expected a list, got a mapping",
    })
    void badDeclarationsAreRefusedWithAMessageNamingTheProblem(String json, String expected) {
        InvalidInput e = assertThrows(InvalidInput.class, () -> DeclarationJson.parse(json));
        assertTrue(e.getMessage().contains(expected), () -> "message was: " + e.getMessage());
    }
}
