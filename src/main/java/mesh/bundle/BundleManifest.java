package mesh.bundle;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * BundleManifest is a bundle as the OCI image spec (1.1) writes an artifact: an image manifest with
 * {@code artifactType} {@value #ARTIFACT_TYPE}, a small config blob ({@link Config}: name and
 * entrypoint) and exactly one layer, a tar.gz of the bundle's files. Writing is canonical (sorted
 * keys, no nulls, no time stamps), so the same content gives the same manifest digest; reading
 * checks every field the fetch relies on and says which one is wrong.
 */
public record BundleManifest(int schemaVersion, String mediaType, String artifactType, Descriptor config,
        List<Descriptor> layers, Map<String, String> annotations) {

    public static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
    public static final String ARTIFACT_TYPE = "application/vnd.mesh.bundle.v1";
    public static final String CONFIG_TYPE = "application/vnd.mesh.bundle.config.v1+json";
    public static final String LAYER_TYPE = "application/vnd.mesh.bundle.layer.v1.tar+gzip";

    /** Descriptor points at one blob: its media type, digest and exact size in bytes. */
    public record Descriptor(String mediaType, String digest, long size) {
    }

    /** Config is the bundle's own blob: its name and the executable's path inside the bundle. */
    public record Config(String name, String entrypoint) {
    }

    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a registry may add fields
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /** The manifest of a bundle with this config and layer blob. */
    static BundleManifest of(Descriptor config, Descriptor layer) {
        return new BundleManifest(2, MANIFEST_TYPE, ARTIFACT_TYPE, config, List.of(layer), null);
    }

    byte[] bytes() {
        return write(this);
    }

    static byte[] write(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value, e);
        }
    }

    Descriptor layer() {
        return layers.get(0);
    }

    /**
     * Reads a manifest fetched from the registry and checks it is a bundle this mesh can fetch.
     *
     * @throws IllegalArgumentException naming every problem, for the caller to put beside the bundle's name
     */
    static BundleManifest parse(byte[] bytes) {
        BundleManifest m;
        try {
            m = JSON.readValue(bytes, BundleManifest.class);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("its manifest is not valid JSON");
        }
        List<String> problems = problems(m);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("its manifest is not a mesh bundle: " + String.join("; ", problems));
        }
        return m;
    }

    static List<String> problems(BundleManifest m) {
        List<String> problems = new ArrayList<>();
        if (m == null) {
            return List.of("the manifest is empty");
        }
        if (m.schemaVersion() != 2) {
            problems.add("schemaVersion is " + m.schemaVersion() + ", not 2");
        }
        if (m.mediaType() != null && !MANIFEST_TYPE.equals(m.mediaType())) {
            problems.add("mediaType is '" + m.mediaType() + "', not " + MANIFEST_TYPE);
        }
        if (!ARTIFACT_TYPE.equals(m.artifactType())) {
            problems.add("artifactType is '" + m.artifactType() + "', not " + ARTIFACT_TYPE);
        }
        descriptorProblems("config", m.config(), CONFIG_TYPE, problems);
        if (m.layers() == null || m.layers().size() != 1) {
            problems.add("it has " + (m.layers() == null ? 0 : m.layers().size()) + " layers, not exactly 1");
        } else {
            descriptorProblems("the layer", m.layers().get(0), LAYER_TYPE, problems);
        }
        return problems;
    }

    private static void descriptorProblems(String what, Descriptor d, String type, List<String> problems) {
        if (d == null) {
            problems.add(what + " is missing");
            return;
        }
        if (!type.equals(d.mediaType())) {
            problems.add(what + " has mediaType '" + d.mediaType() + "', not " + type);
        }
        if (Digest.parse(d.digest()) == null) {
            problems.add(what + " has digest '" + d.digest() + "', not sha256:<64 hex>");
        }
        if (d.size() < 0) {
            problems.add(what + " has a negative size");
        }
    }

    static Config parseConfig(byte[] bytes) {
        Config c;
        try {
            c = JSON.readValue(bytes, Config.class);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("its config is not valid JSON");
        }
        if (c == null || c.entrypoint() == null || c.entrypoint().isBlank()) {
            throw new IllegalArgumentException("its config names no entrypoint");
        }
        return c;
    }
}
