package mesh.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ManifestYaml reads a module manifest strictly and says what is wrong in terms of the file: every
 * problem names the file, the module, the component and the field. The manifest writes
 * {@code stop-timeout: 30s}; the model holds seconds.
 */
public final class ManifestYaml {

    static final ObjectMapper YAML = YAMLMapper.builder(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();
    static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    private ManifestYaml() {
    }

    /** Parses one manifest; {@code file} is only used to name it in errors. */
    public static Manifest parse(String file, String text) {
        JsonNode tree;
        try {
            tree = YAML.readTree(text == null ? "" : text);
        } catch (JsonProcessingException e) {
            throw new InvalidInput(List.of(file + ": not YAML: " + e.getOriginalMessage().lines().findFirst().orElse("")));
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidInput(List.of(file + ": a manifest is a mapping with 'module' and 'components'"));
        }
        String moduleName = tree.path("module").isTextual() ? tree.get("module").asText() : null;
        String where = file + ": module " + (moduleName == null ? "?" : moduleName);
        normaliseStopTimeouts((ObjectNode) tree, where);
        envScalarsAsText((ObjectNode) tree);
        Manifest manifest;
        try {
            manifest = DeclarationJson.MAPPER.convertValue(tree, Manifest.class);
        } catch (IllegalArgumentException e) {
            Throwable cause = e.getCause() instanceof JsonProcessingException ? e.getCause() : e;
            String message = cause instanceof JsonProcessingException j ? DeclarationJson.describe(j) : e.getMessage();
            throw new InvalidInput(List.of(where + ": " + message
                    .replaceAll(" \\(line -?\\d+, column -?\\d+\\)", "")));
        }
        List<String> problems = ManifestCheck.problems(manifest).stream().map(p -> where + ": " + p).toList();
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        return manifest;
    }

    /** YAML reads {@code PORT: 5432} as a number; to a container every variable is text. */
    private static void envScalarsAsText(ObjectNode tree) {
        JsonNode components = tree.get("components");
        if (components == null || !components.isObject()) {
            return;
        }
        components.forEach(c -> {
            if (c.get("env") instanceof ObjectNode env) {
                env.properties().forEach(e -> {
                    if (e.getValue().isNumber() || e.getValue().isBoolean()) {
                        env.put(e.getKey(), e.getValue().asText());
                    }
                });
            }
        });
    }

    /** Turns each component's {@code stop-timeout: 30s} into {@code stopTimeoutSeconds: 30}. */
    private static void normaliseStopTimeouts(ObjectNode tree, String where) {
        JsonNode components = tree.get("components");
        if (components == null || !components.isObject()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = components.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!(entry.getValue() instanceof ObjectNode c) || !c.has("stop-timeout")) {
                continue;
            }
            JsonNode value = c.remove("stop-timeout");
            Matcher m = DURATION.matcher(value.asText());
            if (!value.isValueNode() || !m.matches()) {
                problems.add(where + ": component " + entry.getKey() + ": stop-timeout: must be a duration like 30s, got '"
                        + value.asText() + "'");
                continue;
            }
            long n = Long.parseLong(m.group(1));
            long seconds = m.group(2) == null || m.group(2).equals("s") ? n : m.group(2).equals("m") ? n * 60 : (n + 999) / 1000;
            c.put("stopTimeoutSeconds", seconds);
        }
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
    }
}
