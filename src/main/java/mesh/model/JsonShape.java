package mesh.model;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JsonShape lists every value of a JSON text that does not fit the record it is read into (an
 * unknown field, a list where a mapping belongs, a string where a number belongs, a field given
 * twice), each in {@link DeclarationJson#describe}'s words with its line and column. It exists
 * because Jackson's binding stops at the first such value, and an operator fixing a file by hand
 * wants them all at once. The fields and types are Jackson's own (its introspection of the
 * record), and each scalar is tried with Jackson and the strict mapper, so the rules are the
 * binding's; when nothing is left, the binding itself reads the text.
 */
final class JsonShape {

    /** Value is one JSON value and where it starts: its fields, its items, or the scalar. */
    private static final class Value {
        final JsonToken token;
        final JsonLocation at;
        final Map<String, Field> fields = new LinkedHashMap<>();
        final List<Value> items = new ArrayList<>();
        JsonNode scalar;

        Value(JsonToken token, JsonLocation at) {
            this.token = token;
            this.at = at;
        }
    }

    private record Field(JsonLocation keyAt, Value value) {
    }

    /** Reads one scalar where the parser stands; the document's end is checked once, after the root. */
    private static final com.fasterxml.jackson.databind.ObjectReader SCALAR = DeclarationJson.MAPPER.reader()
            .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final List<String> problems = new ArrayList<>();

    private JsonShape() {
    }

    /**
     * The problems of {@code json} as a {@code type}: a syntax error alone (nothing after it can be
     * read), else every value that does not fit.
     */
    static List<String> problems(String json, Class<?> type) {
        JsonShape shape = new JsonShape();
        Value root;
        try (JsonParser p = DeclarationJson.MAPPER.createParser(json)) {
            if (p.nextToken() == null) {
                return List.of();
            }
            root = shape.read(p, "");
            if (p.nextToken() != null) {
                return List.of("malformed JSON: more after the end of the document" + where(p.currentTokenLocation()));
            }
        } catch (JsonProcessingException e) {
            return List.of(DeclarationJson.describe(e));
        } catch (IOException e) {
            return List.of("malformed JSON: " + e.getMessage());
        }
        shape.check(root, DeclarationJson.MAPPER.constructType(type), "");
        return shape.problems;
    }

    private Value read(JsonParser p, String path) throws IOException {
        Value v = new Value(p.currentToken(), p.currentTokenLocation());
        if (v.token == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonLocation keyAt = p.currentTokenLocation();
                p.nextToken();
                Value value = read(p, join(path, name));
                Field first = v.fields.putIfAbsent(name, new Field(keyAt, value));
                if (first != null) {
                    problems.add("field '" + join(path, name) + "': given twice (first on line " + first.keyAt().getLineNr()
                            + ")" + where(keyAt));
                }
            }
        } else if (v.token == JsonToken.START_ARRAY) {
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                v.items.add(read(p, path + "[" + i++ + "]"));
            }
        } else {
            JsonNode node = SCALAR.readTree(p);
            v.scalar = node == null ? NullNode.getInstance() : node;
        }
        return v;
    }

    private void check(Value v, JavaType type, String path) {
        if (v.scalar != null && v.scalar.isNull()) {
            if (type.isPrimitive()) {
                problems.add("field '" + path + "': is required" + where(v.at));
            }
            return;
        }
        if (type.getRawClass().isRecord() && v.token == JsonToken.START_OBJECT) {
            record(v, type, path);
        } else if (type.isCollectionLikeType() && v.token == JsonToken.START_ARRAY) {
            for (int i = 0; i < v.items.size(); i++) {
                check(v.items.get(i), type.getContentType(), path + "[" + i + "]");
            }
        } else if (type.isMapLikeType() && v.token == JsonToken.START_OBJECT) {
            v.fields.forEach((key, f) -> check(f.value(), type.getContentType(), join(path, key)));
        } else if (v.scalar != null) {
            try {
                DeclarationJson.MAPPER.treeToValue(v.scalar, type);
            } catch (JsonProcessingException | IllegalArgumentException e) {
                String words = e instanceof JsonProcessingException j ? DeclarationJson.words(j) : e.getMessage();
                problems.add((path.isEmpty() ? "" : "field '" + path + "': ") + words + where(v.at));
            }
        } else {
            problems.add((path.isEmpty() ? "" : "field '" + path + "': ") + "expected " + DeclarationJson.kind(type.getRawClass().getName())
                    + ", got " + (v.token == JsonToken.START_ARRAY ? "a list" : "a mapping") + where(v.at));
        }
    }

    /** A record's fields: each known one checked, each unknown one named, each required one missing named. */
    private void record(Value v, JavaType type, String path) {
        BeanDescription bean = DeclarationJson.MAPPER.getDeserializationConfig().introspect(type);
        Map<String, JavaType> known = new LinkedHashMap<>();
        for (BeanPropertyDefinition p : bean.findProperties()) {
            if (p.hasConstructorParameter() || p.hasSetter() || p.hasField()) {
                known.put(p.getName(), p.getPrimaryType());
            }
        }
        v.fields.forEach((name, f) -> {
            JavaType t = known.get(name);
            if (t == null) {
                problems.add("unknown field '" + name + "'" + (path.isEmpty() ? "" : " in " + path)
                        + ManifestSpelling.suggestion(name, List.copyOf(known.keySet())) + where(f.keyAt()));
            } else {
                check(f.value(), t, join(path, name));
            }
        });
        known.forEach((name, t) -> {
            if (t.isPrimitive() && !v.fields.containsKey(name)) {
                problems.add("field '" + join(path, name) + "': is required" + where(v.at));
            }
        });
    }

    static String where(JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
