package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * JsonMessagesTest: a value of the wrong type in a JSON body is described in the body's words
 * (field, expected kind, the value given), never in Jackson's (Java types, coercion settings).
 */
class JsonMessagesTest {

    record Body(String name, Boolean yes, List<String> nodes, long generation) {
    }

    static String describe(String json) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> DeclarationJson.MAPPER.readValue(json, Body.class));
        return DeclarationJson.describe(e).replaceAll(" \\(line \\d+, column \\d+\\)$", "");
    }

    @Test
    void aScalarOfTheWrongTypeIsNamedWithItsValue() {
        assertEquals("field 'name': expected a string, got 5", describe("{\"name\":5}"));
        assertEquals("field 'yes': expected true or false, got 2", describe("{\"yes\":2}"));
        assertEquals("field 'generation': expected a whole number, got \"x\"", describe("{\"generation\":\"x\"}"));
        assertEquals("field 'nodes[0]': expected a string, got 5", describe("{\"nodes\":[5]}"));
    }

    @Test
    void aScalarWhereAListBelongsIsNamed() {
        assertEquals("field 'nodes': expected a list, got a string 'ace'", describe("{\"nodes\":\"ace\"}"));
    }
}
