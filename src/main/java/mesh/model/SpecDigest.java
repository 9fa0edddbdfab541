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
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * SpecDigest is a component's identity on its engine: SHA-256 over the canonical JSON (sorted keys)
 * of an explicit whitelist of the fields of its {@link ContainerRequest}, the very value the engine
 * edge creates the container from. Same digest: leave the container alone. Different digest:
 * replace it, and say which fields changed.
 *
 * <p>The whitelist is versioned ({@code v2:…}). A container labelled by an older version is compared
 * by recomputing that version's digest for the new request, so upgrading mesh never replaces an
 * unchanged container. Add a field only by adding a version.
 *
 * <p>v1 digests: module, image, args, env, volumes, ports (sorted), hosts, network. v2 adds
 * {@code address}, the address the ports are published on, because a node whose mesh address
 * changes must republish them: under v1 the container kept listening on the old address. The
 * request sets it only when the component publishes a port, so a new address replaces exactly the
 * publishing containers. Not digested, because the agent applies them without recreating anything:
 * health, after, stopTimeoutSeconds.
 *
 * <p>v3 adds {@code bundle}, the pinned bundle ({@code NAME@sha256:HEX}) of a process: a new bundle
 * digest restarts exactly that process. A container has no bundle, so its v3 canonical form is its v2
 * form, and a v2-labelled container is kept by the upgrade like any older one.
 *
 * <p>A v1-labelled container does not say where it publishes, so {@link #changes} asks the engine's
 * own answer instead: a running v1 container whose published ports are bound elsewhere than the
 * request's address is replaced with the reason {@code address}; its v2 replacement then carries the
 * address in its digest. A stopped v1 container shows no bindings: it is started, and the next look
 * (it runs then) replaces it if its address is stale.
 *
 * <p>{@code hosts} holds only the names this component binds, which is what keeps a new name
 * elsewhere in the mesh from replacing it (docs/design.md, "The incident that started mesh").
 */
public final class SpecDigest {

    public static final String CURRENT_VERSION = "v3";
    static final List<String> KNOWN_VERSIONS = List.of("v1", "v2", "v3");
    /** What the engine reports as the address of a port published on all addresses. */
    static final Set<String> ALL_ADDRESSES = Set.of("0.0.0.0", "::", "");

    private SpecDigest() {
    }

    /** The canonical form of the digested fields, kept on the container so a replace can say what changed. */
    public static String canonical(String version, ContainerRequest r) {
        if (!isKnown(version)) {
            throw new IllegalArgumentException("unknown spec digest version " + version);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("module", r.module());
        fields.put("image", r.image());
        fields.put("args", r.args());
        fields.put("env", r.env());
        fields.put("volumes", r.volumes());
        fields.put("ports", r.ports());
        fields.put("hosts", r.hosts());
        fields.put("network", r.network());
        if (!"v1".equals(version)) {
            fields.put("address", r.publishAddress());
        }
        if ("v3".equals(version)) {
            fields.put("bundle", r.bundle());   // null (left out) for a container
        }
        // each secret as its name and keyed hash, never its value; null (left out) for a component that uses
        // none, which is every component made before secrets, so no version was needed (docs/declaration.md)
        fields.put("secrets", r.secretDigests());
        return DeclarationJson.write(fields);
    }

    public static String of(ContainerRequest r) {
        return of(CURRENT_VERSION, r);
    }

    /** The digest label value, {@code version:hex}. */
    public static String of(String version, ContainerRequest r) {
        return version + ":" + sha256(canonical(version, r));
    }

    /** Whether a label written by any known version still describes this request. */
    public static boolean matches(String label, ContainerRequest r) {
        String version = versionOf(label);
        return isKnown(version) && of(version, r).equals(label);
    }

    /**
     * Why the container {@code current} must be replaced to become {@code wanted}: the fields that
     * changed, in alphabetical order; empty when it may stay.
     */
    public static List<String> changes(ObservedContainer current, ContainerRequest wanted) {
        String version = versionOf(current.digest());
        if (!isKnown(version)) {
            return List.of("made by an unknown mesh version (digest " + (version.isEmpty() ? "missing" : version) + ")");
        }
        if (!matches(current.digest(), wanted)) {
            return secretWords(changedFields(current.spec(), canonical(version, wanted)), current.spec(), wanted);
        }
        if ("v1".equals(version) && publishedElsewhere(current.publishedOn(), wanted)) {
            return List.of("address");
        }
        return List.of();
    }

    /** Whether the engine reports a port of this container bound to another address than the request's. */
    static boolean publishedElsewhere(List<String> publishedOn, ContainerRequest wanted) {
        if (wanted.ports().isEmpty()) {
            return false;
        }
        return publishedOn.stream().anyMatch(on -> wanted.publishAddress() == null
                ? !ALL_ADDRESSES.contains(on) : !wanted.publishAddress().equals(on));
    }

    /**
     * {@code fields} with {@code secrets} said as the secrets that changed, {@code secret db-password}
     * (a preview reads "replaced; secret db-password changed"), from the old canonical form's hashes.
     */
    static List<String> secretWords(List<String> fields, String oldCanonical, ContainerRequest wanted) {
        if (!fields.contains("secrets")) {
            return fields;
        }
        Map<String, String> before = new java.util.TreeMap<>();
        try {
            JsonNode old = DeclarationJson.MAPPER.readTree(oldCanonical).get("secrets");
            if (old != null) {
                old.fields().forEachRemaining(e -> before.put(e.getKey(), e.getValue().asText()));
            }
        } catch (JsonProcessingException | RuntimeException e) {
            return fields;
        }
        TreeSet<String> words = new TreeSet<>();
        wanted.secrets().forEach((k, ref) -> {
            if (!ref.digestForm().equals(before.remove(k))) {
                words.add("secret " + ref.secret());
            }
        });
        before.values().forEach(form -> words.add("secret " + form.split(" ")[1]));
        List<String> out = new ArrayList<>(fields.stream().filter(f -> !f.equals("secrets")).toList());
        out.addAll(words);
        return out;
    }

    public static String versionOf(String label) {
        int colon = label == null ? -1 : label.indexOf(':');
        return colon < 0 ? "" : label.substring(0, colon);
    }

    public static boolean isKnown(String version) {
        return KNOWN_VERSIONS.contains(version);
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
                if (!Objects.equals(before.get(key), after.get(key))) {
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
