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
            refuseNul(body);
            T value = DeclarationJson.MAPPER.readValue(body, type);
            if (value == null) {
                throw new InvalidInput(List.of("the request needs a JSON body: " + expected));
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new InvalidInput(List.of(DeclarationJson.describe(e) + "; expected " + expected));
        }
    }

    /**
     * Refuses a body with a NUL character in any field, naming the field: PostgreSQL cannot keep a
     * NUL in text, and let through it failed at the store as "the store failed" (503). JSON can
     * only carry one escaped (backslash, u0000), so a body without that escape is not walked.
     */
    static void refuseNul(String body) throws JsonProcessingException {
        if (!body.toLowerCase(java.util.Locale.ROOT).contains("\\u0000")) {
            return;
        }
        String at = nulIn(DeclarationJson.MAPPER.readTree(body), "");
        if (at != null) {
            throw new InvalidInput(List.of((at.isEmpty() ? "the body" : at) + " holds a NUL character (\\u0000), which no"
                    + " name or text of the mesh can hold"));
        }
    }

    /** Where in {@code node} a NUL is (a field path like {@code files[0].yaml}), or null. */
    static String nulIn(com.fasterxml.jackson.databind.JsonNode node, String path) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0 ? path : null;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String at = nulIn(node.get(i), path + "[" + i + "]");
                if (at != null) {
                    return at;
                }
            }
        }
        if (node.isObject()) {
            for (var e : node.properties()) {
                String field = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                if (e.getKey().indexOf('\0') >= 0) {
                    return "a field name" + (path.isEmpty() ? "" : " in " + path);
                }
                String at = nulIn(e.getValue(), field);
                if (at != null) {
                    return at;
                }
            }
        }
        return null;
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
