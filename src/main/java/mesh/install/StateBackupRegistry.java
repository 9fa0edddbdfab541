package mesh.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import mesh.bundle.Digest;
import mesh.bundle.Registry;
import mesh.plan.StateBackupSchedule;

/**
 * StateBackupRegistry keeps a state backup in a registry (a node's {@code mesh-registry}, off the seat): an OCI artifact
 * of repository {@value #REPOSITORY}, tagged by when it was made ({@code mesh-state-20261205T100003Z}), whose one layer
 * is the sealed artifact as it is (it is sealed already: the registry holds nothing readable without the passphrase).
 */
public final class StateBackupRegistry {

    public static final String REPOSITORY = "mesh-state";
    public static final String ARTIFACT_TYPE = "application/vnd.mesh.state.v1";
    public static final String CONFIG_TYPE = "application/vnd.mesh.state.config.v1+json";
    public static final String LAYER_TYPE = "application/vnd.mesh.state.v1.sealed";
    static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";

    private StateBackupRegistry() {
    }

    /** The tag of a state backup made at {@code made}. */
    public static String tag(Instant made) {
        return StateBackupSchedule.fileName(made).replace(".backup", "");
    }

    /** Pushes {@code artifact} (made at {@code made}); its reference, {@code REGISTRY/mesh-state:TAG}. */
    public static String push(Registry registry, byte[] artifact, Instant made) {
        byte[] config = "{}".getBytes(StandardCharsets.US_ASCII);
        Digest configDigest = Digest.of(config);
        Digest layer = Digest.of(artifact);
        registry.pushBlob(REPOSITORY, configDigest, config);
        registry.pushBlob(REPOSITORY, layer, artifact);
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + MANIFEST_TYPE + "\",\"artifactType\":\"" + ARTIFACT_TYPE
                + "\",\"config\":{\"mediaType\":\"" + CONFIG_TYPE + "\",\"digest\":\"" + configDigest + "\",\"size\":" + config.length
                + "},\"layers\":[{\"mediaType\":\"" + LAYER_TYPE + "\",\"digest\":\"" + layer + "\",\"size\":" + artifact.length + "}]}";
        registry.putManifest(REPOSITORY, tag(made), manifest.getBytes(StandardCharsets.UTF_8));
        return registry.address() + "/" + REPOSITORY + ":" + tag(made);
    }

    /** The artifact tagged {@code tag}; an {@link InstallFailure} when it is not a state backup. */
    public static byte[] fetch(Registry registry, String tag) {
        try {
            JsonNode manifest;
            try (InputStream in = registry.manifest(REPOSITORY, tag)) {
                manifest = new ObjectMapper().readTree(in);
            }
            if (!ARTIFACT_TYPE.equals(manifest.path("artifactType").asText()) || manifest.path("layers").size() != 1) {
                throw new InstallFailure(registry.address() + "/" + REPOSITORY + ":" + tag + " is no state backup (artifact type '"
                        + manifest.path("artifactType").asText() + "')");
            }
            try (InputStream in = registry.blob(REPOSITORY, Digest.parse(manifest.path("layers").get(0).path("digest").asText()))) {
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot read the state backup " + registry.address() + "/" + REPOSITORY + ":" + tag + ": "
                    + e.getMessage(), e);
        }
    }
}
