package mesh.model;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LegacyManifestYaml is how manifests were read before ManifestYaml read the YAML node tree itself
 * (Jackson's tree, then data binding into {@link Manifest}), kept only so that
 * {@code GoodManifestsTest} can show that every good manifest still reads to exactly the same
 * Manifest. It checks nothing: the cases it is given are good ones.
 */
final class LegacyManifestYaml {

    static final ObjectMapper YAML = YAMLMapper.builder(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();
    static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    private LegacyManifestYaml() {
    }

    static Manifest parse(String text) throws Exception {
        JsonNode tree = YAML.readTree(text);
        JsonNode components = tree.get("components");
        Iterator<Map.Entry<String, JsonNode>> it = components.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> entry = it.next();
            ObjectNode c = (ObjectNode) entry.getValue();
            if (c.has("stop-timeout")) {
                Matcher m = DURATION.matcher(c.remove("stop-timeout").asText());
                if (!m.matches()) {
                    throw new IllegalArgumentException("not a duration");
                }
                long n = Long.parseLong(m.group(1));
                long seconds = m.group(2) == null || m.group(2).equals("s") ? n : m.group(2).equals("m") ? n * 60 : (n + 999) / 1000;
                c.put("stopTimeoutSeconds", seconds);
            }
            if (c.get("env") instanceof ObjectNode env) {
                env.properties().forEach(e -> {
                    if (e.getValue().isNumber() || e.getValue().isBoolean()) {
                        env.put(e.getKey(), e.getValue().asText());
                    }
                });
            }
        }
        return DeclarationJson.MAPPER.convertValue(tree, Manifest.class);
    }
}
