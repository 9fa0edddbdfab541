package mesh.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * SpecDigest is a component's identity on its engine: SHA-256 over the canonical JSON (sorted keys)
 * of an explicit whitelist of the fields a container is created with. Same digest: leave the
 * container alone. Different digest: replace it, and say which fields changed.
 *
 * <p>The whitelist is versioned ({@code v1:…}). A container labelled by an older version is compared
 * by recomputing that version's digest for the new spec, so upgrading mesh never replaces an
 * unchanged container. Add a field only by adding a version.
 *
 * <p>v1 digests: module, image, args, env, volumes, ports (sorted), hosts, network. Not digested,
 * because the agent applies them without recreating anything: health, after, stopTimeoutSeconds.
 * {@code hosts} holds only the names this component binds, which is what keeps a new name elsewhere
 * in the mesh from replacing it (docs/design.md, "The incident that started mesh").
 */
public final class SpecDigest {

    public static final String CURRENT_VERSION = "v1";

    private SpecDigest() {
    }

    /** The canonical form of the digested fields, kept on the container so a replace can say what changed. */
    public static String canonical(String version, ComponentSpec c) {
        if (!CURRENT_VERSION.equals(version)) {
            throw new IllegalArgumentException("unknown spec digest version " + version);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("module", c.module());
        fields.put("image", c.image());
        fields.put("args", c.args());
        fields.put("env", c.env());
        fields.put("volumes", c.volumes());
        fields.put("ports", c.ports().stream().sorted().toList());
        fields.put("hosts", c.hosts());
        fields.put("network", c.network());
        return DeclarationJson.write(fields);
    }

    public static String of(ComponentSpec c) {
        return of(CURRENT_VERSION, c);
    }

    /** The digest label value, {@code version:hex}. */
    public static String of(String version, ComponentSpec c) {
        return version + ":" + sha256(canonical(version, c));
    }

    /** Whether a label written by any known version still describes this spec. */
    public static boolean matches(String label, ComponentSpec c) {
        String version = versionOf(label);
        return isKnown(version) && of(version, c).equals(label);
    }

    public static String versionOf(String label) {
        int colon = label == null ? -1 : label.indexOf(':');
        return colon < 0 ? "" : label.substring(0, colon);
    }

    public static boolean isKnown(String version) {
        return CURRENT_VERSION.equals(version);
    }

    /**
     * The top-level fields that differ between two canonical forms, in alphabetical order. An
     * unreadable old form yields a single "spec" entry rather than a guess.
     */
    public static List<String> changedFields(String oldCanonical, String newCanonical) {
        try {
            JsonNode before = DeclarationJson.MAPPER.readTree(oldCanonical == null ? "null" : oldCanonical);
            JsonNode after = DeclarationJson.MAPPER.readTree(newCanonical);
            if (before == null || !before.isObject() || !after.isObject()) {
                return List.of("spec");
            }
            TreeSet<String> keys = new TreeSet<>();
            before.fieldNames().forEachRemaining(keys::add);
            after.fieldNames().forEachRemaining(keys::add);
            List<String> changed = new ArrayList<>();
            for (String key : keys) {
                if (!java.util.Objects.equals(before.get(key), after.get(key))) {
                    changed.add(key);
                }
            }
            return changed.isEmpty() ? List.of("spec") : changed;
        } catch (JsonProcessingException e) {
            return List.of("spec");
        }
    }

    static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

}
