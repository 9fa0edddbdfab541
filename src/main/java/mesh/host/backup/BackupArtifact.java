package mesh.host.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.bundle.BundleManifest;
import mesh.model.VolumeManifest;

/**
 * BackupArtifact is the form of a backup in the registry (docs/backup.md, "What is stored"): an OCI image manifest
 * whose config is the module's volume manifests (the take's manifest form: every entry with its sha256) and whose
 * layers are the distinct contents of the large files, one blob each, keyed by their sha256, or for a file over
 * {@link Chunks#SIZE} its chunks, each a blob (version 3; the config lists each such content's chunks in order), and the
 * packs that hold the small files' contents ({@link Packs}), each listed in the config with the contents in it. Distribution 2.8 stores an OCI
 * manifest of any config and layer media type (mesh's bundles are stored the same way), checks that every layer's
 * blob is in the repository when the manifest is put, and keeps a manifest's blobs from its garbage collection.
 */
public final class BackupArtifact {

    public static final String ARTIFACT_TYPE = "application/vnd.mesh.backup.v1";
    public static final String CONFIG_TYPE = "application/vnd.mesh.backup.config.v1+json";
    public static final String FILE_TYPE = "application/vnd.mesh.backup.file.v1";
    public static final String PACK_TYPE = "application/vnd.mesh.backup.pack.v1";
    public static final String CHUNK_TYPE = "application/vnd.mesh.backup.chunk.v1";
    /** The config's version this agent writes: 3, with chunks; it reads 1 (no packs) and 2 (no chunks) as well. */
    public static final int VERSION = 3;
    /**
     * The largest manifest written: registries are expected to take manifests of 4 MB (the OCI distribution spec's
     * "at least 4 megabytes"), about 25,000 layers: large files' contents and packs. A larger backup is refused,
     * saying so.
     */
    public static final int MAX_MANIFEST = 4 * 1024 * 1024;

    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL).build();

    private BackupArtifact() {
    }

    /**
     * Config is the artifact's config blob: the module, each volume's manifest (its kind beside it), the packs the
     * small files' contents travel in ({@link Packs}; none in a version 1 backup, whose every content is a blob of its
     * own) and the contents stored as chunks ({@link Chunks}; none before version 3, whose large contents are one blob
     * each).
     */
    public record Config(int version, String module, String created, List<Volume> volumes, List<Pack> packs,
                         List<Chunked> chunked) {
        public Config {
            volumes = volumes == null ? List.of() : List.copyOf(volumes);
            packs = packs == null ? List.of() : List.copyOf(packs);
            chunked = chunked == null ? List.of() : List.copyOf(chunked);
        }
    }

    /**
     * Chunked is one large content stored as chunks: its sha256 (hex, the one its files' manifest entries have), its
     * size and its chunks in order, which hold its bytes one after the other.
     */
    public record Chunked(String sha256, long size, List<Chunk> chunks) {
        public Chunked {
            chunks = chunks == null ? List.of() : List.copyOf(chunks);
        }
    }

    /** Chunk is one chunk of a content: the sha256 (hex) of its bytes, which names its blob, and its size. */
    public record Chunk(String sha256, long size) {
    }

    /** Pack is one blob of small file contents: its sha256 (hex), size and the contents in it. */
    public record Pack(String sha256, long size, List<Part> parts) {
        public Pack {
            parts = parts == null ? List.of() : List.copyOf(parts);
        }
    }

    /** Part is one content in a pack: its sha256 (hex), where it begins in the pack, its size. */
    public record Part(String sha256, long offset, long size) {
    }

    /** Volume is one volume's kind and manifest in the config. */
    public record Volume(String kind, VolumeManifest manifest) {
    }

    /** Descriptor is an OCI content descriptor. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Descriptor(String mediaType, String digest, long size, Map<String, String> annotations) {
    }

    /** Manifest is the OCI image manifest of a backup. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Manifest(int schemaVersion, String mediaType, String artifactType, Descriptor config,
                           List<Descriptor> layers, Map<String, String> annotations) {
        public Manifest {
            layers = layers == null ? List.of() : List.copyOf(layers);
        }
    }

    /**
     * The distinct file contents of the config's volumes that are blobs of their own (every one not in a pack): sha256
     * (hex) to size, sorted by hash.
     */
    public static Map<String, Long> blobs(Config config) {
        java.util.Set<String> packed = new java.util.HashSet<>();
        config.packs().forEach(p -> p.parts().forEach(part -> packed.add(part.sha256())));
        Map<String, Long> blobs = new TreeMap<>();
        for (Volume v : config.volumes()) {
            for (VolumeManifest.Entry e : v.manifest().entries()) {
                if ("file".equals(e.type()) && e.sha256() != null && !packed.contains(e.sha256())) {
                    blobs.putIfAbsent(e.sha256(), e.size());
                }
            }
        }
        return blobs;
    }

    /** The contents of the config stored as chunks, by their sha256 (hex). */
    public static Map<String, Chunked> chunked(Config config) {
        Map<String, Chunked> chunked = new java.util.HashMap<>();
        config.chunked().forEach(c -> chunked.putIfAbsent(c.sha256(), c));
        return chunked;
    }

    /** The first path (volume/path) of each content, to name a file when its blob is found wrong. */
    public static Map<String, String> firstPaths(Config config) {
        Map<String, String> paths = new LinkedHashMap<>();
        for (Volume v : config.volumes()) {
            for (VolumeManifest.Entry e : v.manifest().entries()) {
                if ("file".equals(e.type()) && e.sha256() != null) {
                    paths.putIfAbsent(e.sha256(), "volume " + v.manifest().volume() + ", file " + e.path());
                }
            }
        }
        return paths;
    }

    /**
     * The manifest naming {@code config} (its digest and size) and every blob of it as a layer, each once: its files'
     * (a chunked file's chunks instead of its content), its packs.
     */
    public static byte[] manifest(String configDigest, long configSize, Config config) {
        List<Descriptor> layers = new ArrayList<>();
        Map<String, Chunked> chunked = chunked(config);
        Map<String, Long> chunks = new TreeMap<>();
        java.util.Set<String> listed = new java.util.HashSet<>();
        blobs(config).forEach((hex, size) -> {
            if (chunked.containsKey(hex)) {
                chunked.get(hex).chunks().forEach(c -> chunks.putIfAbsent(c.sha256(), c.size()));
            } else {
                layers.add(new Descriptor(FILE_TYPE, "sha256:" + hex, size, null));
                listed.add(hex);
            }
        });
        chunks.forEach((hex, size) -> {
            if (listed.add(hex)) {   // a chunk equal to a whole file's blob is the same blob, listed once
                layers.add(new Descriptor(CHUNK_TYPE, "sha256:" + hex, size, null));
            }
        });
        config.packs().forEach(p -> layers.add(new Descriptor(PACK_TYPE, "sha256:" + p.sha256(), p.size(), null)));
        Map<String, String> annotations = new TreeMap<>();
        annotations.put("org.opencontainers.image.created", config.created());
        annotations.put("mesh.module", config.module());
        byte[] bytes = write(new Manifest(2, BundleManifest.MANIFEST_TYPE, ARTIFACT_TYPE,
                new Descriptor(CONFIG_TYPE, configDigest, configSize, null), layers, annotations));
        if (bytes.length > MAX_MANIFEST) {
            throw new IllegalArgumentException("the backup of module " + config.module() + " holds " + layers.size()
                    + " blobs (distinct large files, their chunks and packs of small ones), more than a registry manifest"
                    + " of 4 MB can list (about 25,000)");
        }
        return bytes;
    }

    public static byte[] write(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** The manifest read back; refused when it is not a backup's. */
    public static Manifest readManifest(byte[] bytes, String reference) {
        Manifest m;
        try {
            m = JSON.readValue(bytes, Manifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("backup " + reference + ": its manifest is not valid JSON");
        }
        if (m.config() == null || !CONFIG_TYPE.equals(m.config().mediaType())) {
            throw new IllegalArgumentException("backup " + reference + ": the registry's artifact is not a mesh backup"
                    + " (its config is " + (m.config() == null ? "missing" : m.config().mediaType()) + ")");
        }
        return m;
    }

    public static Config readConfig(byte[] bytes, String reference) {
        try {
            return JSON.readValue(bytes, Config.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("backup " + reference + ": its config is not valid JSON");
        }
    }
}
