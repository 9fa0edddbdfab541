package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PushOriginTest: a declaration names the push that sent it in an optional field, both ways: a
 * named one round-trips, one without the field (from a controller older than named pushes) still
 * parses, an unnamed one is written without the field (what an older agent can read), and a
 * malformed name is refused naming the field.
 */
class PushOriginTest {

    static final String UNNAMED = "{\"node\":\"ace\",\"generation\":3,\"components\":[{\"module\":\"m\",\"name\":\"a\",\"image\":\"x\"}]}";

    @Test
    void aNamedDeclarationRoundTripsAndAnUnnamedOneHasNoField() {
        Declaration unnamed = DeclarationJson.parse(UNNAMED);
        assertNull(unnamed.push(), "a declaration from an older controller names no push");
        assertFalse(DeclarationJson.write(unnamed).contains("push"), DeclarationJson.write(unnamed));

        Declaration named = unnamed.withPush(PushOrigin.of(42, "alice"));
        String json = DeclarationJson.write(named);
        assertTrue(json.contains("\"push\":{\"by\":\"alice\",\"id\":42}"), json);
        assertEquals(named, DeclarationJson.parse(json));
        Declaration take = unnamed.withPush(PushOrigin.ofTake(57, "controller", "web", 3));
        assertEquals(take, DeclarationJson.parse(DeclarationJson.write(take)));
        assertEquals(unnamed.components(), named.components(), "a name leaves the components (and so their digests) alone");
    }

    @Test
    void aPushIsSaidInWords() {
        assertEquals("pushed by alice (push 42)", PushOrigin.of(42, "alice").words());
        assertEquals("pushed by controller for the take of web, epoch 3 (push 57)",
                PushOrigin.ofTake(57, "controller", "web", 3).words());
    }

    @Test
    void aMalformedNameIsRefusedNamingTheField() {
        String base = UNNAMED.substring(0, UNNAMED.length() - 1);
        assertEquals(List.of("push.id: must be 1 or more, got 0"), problems(base + ",\"push\":{\"id\":0,\"by\":\"alice\"}}"));
        assertEquals(List.of("push.by: is required (the operator token's name, or controller)"),
                problems(base + ",\"push\":{\"id\":4}}"));
        assertEquals(List.of("push: take and epoch go together, got take 'web' and epoch null"),
                problems(base + ",\"push\":{\"id\":4,\"by\":\"controller\",\"take\":\"web\"}}"));
        InvalidInput e = assertThrows(InvalidInput.class,
                () -> DeclarationJson.parse(base + ",\"push\":{\"id\":4,\"by\":\"alice\",\"who\":\"x\"}}"));
        assertTrue(e.getMessage().contains("unknown field 'who' in push"), e.getMessage());
    }

    private static List<String> problems(String json) {
        return assertThrows(InvalidInput.class, () -> DeclarationJson.parse(json)).problems();
    }
}
