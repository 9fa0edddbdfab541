package mesh.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * DeclarationJson reads and writes declarations strictly: an unknown field, a field of the wrong
 * type or trailing garbage is an error that names the field, never a silently dropped value.
 */
public final class DeclarationJson {

    /** MAPPER is strict on input and canonical on output (sorted keys, no nulls). */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .withCoercionConfig(LogicalType.Textual, c -> c
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Integer, c -> c
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
            .build();

    private DeclarationJson() {
    }

    /** Parses and validates; the exception's message names every problem found. */
    public static Declaration parse(String json) {
        if (json == null || json.isBlank()) {
            throw new InvalidInput(List.of("the declaration is empty"));
        }
        // every field that does not fit, each with its line and column, before the binding stops at the first
        List<String> shape = JsonShape.problems(json, Declaration.class);
        if (!shape.isEmpty()) {
            throw new InvalidInput(shape);
        }
        Declaration declaration;
        try {
            declaration = MAPPER.readValue(json, Declaration.class);
        } catch (JsonProcessingException e) {
            throw new InvalidInput(List.of(describe(e)));
        }
        if (declaration == null) {
            throw new InvalidInput(List.of("the declaration is empty"));
        }
        List<String> problems = DeclarationCheck.problems(declaration);
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        return declaration;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    public static String writePretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    /** Turns Jackson's multi-line message into one line that names the field by its path. */
    public static String describe(JsonProcessingException e) {
        String where = e instanceof JsonMappingException m ? path(m.getPath()) : "";
        String location = e.getLocation() == null || e.getLocation().getLineNr() < 1 ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
        if (e instanceof UnrecognizedPropertyException u) {
            String parent = path(u.getPath().subList(0, u.getPath().size() - 1));
            return "unknown field '" + u.getPropertyName() + "'" + (parent.isEmpty() ? "" : " in " + parent) + location;
        }
        JsonProcessingException syntax = e instanceof StreamReadException ? e
                : e.getCause() instanceof StreamReadException read ? read : null;
        if (syntax != null || e.getClass().getSimpleName().startsWith("StreamConstraints")) {
            // a syntax error, or a limit of the reader: nothing after it was read, so no field is named
            return "malformed JSON: " + JsonSyntax.words((syntax == null ? e : syntax).getOriginalMessage()) + location;
        }
        return (where.isEmpty() ? "malformed JSON: " : "field '" + where + "': ") + words(e) + location;
    }

    /** What Jackson refused, in the document's words: no Java type, no parser token, no library setting. */
    static String words(JsonProcessingException e) {
        String message = e.getOriginalMessage().lines().findFirst().orElse("malformed JSON");
        return JsonSyntax.withoutSource(plainTypes(message.replaceAll(" \\(class [^)]*\\)", "")).replaceAll("`", "'"));
    }

    private static final java.util.regex.Pattern WRONG_TYPE = java.util.regex.Pattern.compile(
            "Cannot deserialize value of type `([^`]+)` from (\\w+) (?:value|token).*");

    /** Jackson's refusal of a number too large for its field: "Numeric value (…) out of range of long (…)". */
    private static final java.util.regex.Pattern OUT_OF_RANGE = java.util.regex.Pattern.compile(
            "Numeric value \\((.*)\\) out of range of \\w+.*");
    /** Jackson's refusal of a scalar it would not coerce: "Cannot coerce Integer value (5) to `java.lang.String` value …". */
    private static final java.util.regex.Pattern NO_COERCION = java.util.regex.Pattern.compile(
            "Cannot coerce [\\w-]+ value \\((.*)\\) to `([^`]+)` value.*");
    /** Jackson's refusal to build a list or record from a scalar: "Cannot construct instance of `java.util.ArrayList` … from String value ('ace')". */
    private static final java.util.regex.Pattern NO_CREATOR = java.util.regex.Pattern.compile(
            "Cannot construct instance of `([^`]+)`.*deserialize from (\\w+) value \\((.*)\\).*");

    /** Says "expected a list, got a mapping" rather than naming Java types, parser tokens or library settings. */
    static String plainTypes(String message) {
        if (message.startsWith("Cannot map `null` into type")) {
            return "is required";
        }
        java.util.regex.Matcher m = WRONG_TYPE.matcher(message);
        if (m.matches()) {
            return "expected " + kind(m.group(1)) + ", got " + kind(m.group(2));
        }
        m = OUT_OF_RANGE.matcher(message);
        if (m.matches()) {
            return "expected a whole number, got " + m.group(1) + ", which is too large";
        }
        m = NO_COERCION.matcher(message);
        if (m.matches()) {
            return "expected " + kind(m.group(2)) + ", got " + m.group(1);
        }
        m = NO_CREATOR.matcher(message);
        if (m.matches()) {
            return "expected " + kind(m.group(1)) + ", got " + kind(m.group(2)) + " " + m.group(3);
        }
        // anything else Jackson says: at least no Java type names
        return message.replaceAll("`java\\.[\\w.$]+`", "a value of another type");
    }

    static String kind(String type) {
        String t = type.replaceAll("<.*", "");
        if (t.endsWith("Map") || t.equals("Object") || t.startsWith("mesh.")) {
            return "a mapping";
        }
        if (t.endsWith("List") || t.equals("Array") || t.endsWith("[]")) {
            return "a list";
        }
        if (t.endsWith("String")) {
            return "a string";
        }
        if (t.matches(".*(Integer|int|long|Long)") || t.equals("Floating-point")) {
            return "a whole number";
        }
        if (t.matches(".*(Boolean|boolean)")) {
            return "true or false";
        }
        return t.toLowerCase(java.util.Locale.ROOT);
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        return refs.stream()
                .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining())
                .replaceFirst("^\\.", "");
    }
}
