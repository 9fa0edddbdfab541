package mesh.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;

/**
 * DeclarationChanges answers "what changed between these two declarations": components added,
 * removed, and changed with every field that differs (not only the digested ones), and each such
 * field's value before and after ({@code values}), so an operator can read on the machine itself why
 * a pass replaced what it did (docs/design.md, "The incident that started mesh").
 */
public record DeclarationChanges(long from, long to, List<String> added, List<String> removed,
                                 Map<String, List<String>> changed, Map<String, List<FieldChange>> values) {

    /** FieldChange is one field of a changed component: its value before and after, as JSON (null: absent). */
    public record FieldChange(String field, JsonNode before, JsonNode after) {
    }

    public static DeclarationChanges between(Declaration a, Declaration b) {
        Map<String, ComponentSpec> before = byName(a);
        Map<String, ComponentSpec> after = byName(b);
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        Map<String, List<String>> changed = new TreeMap<>();
        Map<String, List<FieldChange>> values = new TreeMap<>();
        for (String name : after.keySet()) {
            if (!before.containsKey(name)) {
                added.add(name);
            }
        }
        for (String name : before.keySet()) {
            ComponentSpec old = before.get(name);
            ComponentSpec now = after.get(name);
            if (now == null) {
                removed.add(name);
            } else if (!old.equals(now)) {
                values.put(name, fields(old, now));
                changed.put(name, values.get(name).stream().map(FieldChange::field).toList());
            }
        }
        return new DeclarationChanges(a.generation(), b.generation(), added, removed, changed, values);
    }

    public boolean nothingChanged() {
        return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }

    private static Map<String, ComponentSpec> byName(Declaration d) {
        Map<String, ComponentSpec> map = new TreeMap<>();
        d.components().forEach(c -> map.put(c.name(), c));
        return map;
    }

    private static List<FieldChange> fields(ComponentSpec old, ComponentSpec now) {
        JsonNode a = shown(old);
        JsonNode b = shown(now);
        TreeSet<String> keys = new TreeSet<>();
        a.fieldNames().forEachRemaining(keys::add);
        b.fieldNames().forEachRemaining(keys::add);
        return keys.stream().filter(k -> !java.util.Objects.equals(a.get(k), b.get(k)))
                .map(k -> new FieldChange(k, present(a.get(k)), present(b.get(k)))).toList();
    }

    /**
     * A component as the comparison shows it: each secret in words, {@code (secret db-password, version 2)},
     * never its value, its sealed value or its hash (docs/trust.md, "Secrets").
     */
    private static JsonNode shown(ComponentSpec c) {
        com.fasterxml.jackson.databind.node.ObjectNode tree = DeclarationJson.MAPPER.valueToTree(c);
        if (!c.secrets().isEmpty()) {
            com.fasterxml.jackson.databind.node.ObjectNode words = tree.putObject("secrets");
            c.secrets().forEach((variable, ref) -> words.put(variable, ref.words()));
        }
        return tree;
    }

    private static JsonNode present(JsonNode value) {
        return value == null || value.isNull() ? null : value;
    }
}
