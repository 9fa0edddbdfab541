package mesh.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.util.List;
import mesh.model.DeclarationJson;
import mesh.model.InvalidInput;

/**
 * Bodies reads the controller's request bodies with the same strict mapper as declarations, so an
 * unknown field, a number where a name belongs or broken JSON is a 400 that names the field. (Left
 * to the REST layer, such errors came back as an empty 400, or coerced 5 into "5".)
 */
final class Bodies {

    private Bodies() {
    }

    static <T> T read(String body, Class<T> type, String expected) {
        return read(body, DeclarationJson.MAPPER.constructType(type), expected);
    }

    static <T> T read(String body, TypeReference<T> type, String expected) {
        return read(body, DeclarationJson.MAPPER.getTypeFactory().constructType(type), expected);
    }

    private static <T> T read(String body, com.fasterxml.jackson.databind.JavaType type, String expected) {
        if (body == null || body.isBlank()) {
            throw new InvalidInput(List.of("the request needs a JSON body: " + expected));
        }
        try {
            T value = DeclarationJson.MAPPER.readValue(body, type);
            if (value == null) {
                throw new InvalidInput(List.of("the request needs a JSON body: " + expected));
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new InvalidInput(List.of(DeclarationJson.describe(e) + "; expected " + expected));
        }
    }

    /** A query flag: absent or {@code false} is false, {@code true} (or bare) is true; anything else is named. */
    static boolean flag(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.isEmpty() || value.equals("true")) {
            return true;
        }
        throw new InvalidInput(List.of(name + ": true or false, got '" + value + "'"));
    }
}
