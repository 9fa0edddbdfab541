package mesh.bundle;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;

/**
 * RegistryFixture is a real artifact store for a test: a container from {@code mesh-test/registry:2}
 * (CNCF Distribution 2.8.3 from Debian 13, built by {@code scripts/testbed up}) on the root engine, published on
 * 127.0.0.1 at a free port (or on a simulated node's engine and address), labelled with a per-run label and removed with its volume on close.
 */
public final class RegistryFixture implements AutoCloseable {

    static final String IMAGE = "mesh-test/registry:2";
    public static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");
    static final String RUN_LABEL = "mesh.test.run";

    final String run = "bundle-it-" + UUID.randomUUID().toString().substring(0, 8);
    final DockerClient docker;
    final int port = PackagedMesh.freePort();
    public final String url;
    private final String id;

    public RegistryFixture() throws InterruptedException {
        this(ENGINE, "127.0.0.1");
    }

    /** A registry on {@code engine} (a simulated node's, say), published on {@code address} (that node's). */
    public RegistryFixture(String engine, String address) throws InterruptedException {
        this(engine, address, Map.of());
    }

    /**
     * A registry on {@code engine} published on {@code address}, with Distribution's settings {@code env} beside the
     * image's ({@code REGISTRY_STORAGE_DELETE_ENABLED=true}: blobs can be deleted, {@link #deleteBlob}).
     */
    public RegistryFixture(String engine, String address, Map<String, String> env) throws InterruptedException {
        docker = TestbedNodes.client(engine);
        url = "http://" + address + ":" + port;
        ExposedPort api = ExposedPort.tcp(5000);
        Ports ports = new Ports();
        ports.bind(api, Ports.Binding.bindIpAndPort(address, port));
        String id = docker.createContainerCmd(IMAGE).withName(run).withLabels(Map.of(RUN_LABEL, run))
                .withEnv(env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList())
                .withExposedPorts(api).withHostConfig(HostConfig.newHostConfig().withPortBindings(ports)).exec().getId();
        docker.startContainerCmd(id).exec();
        this.id = id;
        PackagedMesh.await("the registry at " + url + " answers GET /v2/", java.time.Duration.ofSeconds(30), this::answers);
    }

    private boolean answers() {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url + "/v2/").toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Where the registry keeps a blob's bytes on this machine (its storage volume's folder; the engine runs here). */
    public Path blobFile(Digest digest) {
        String storage = docker.inspectContainerCmd(id).exec().getMounts().stream()
                .filter(m -> m.getDestination() != null && "/var/lib/registry".equals(m.getDestination().getPath()))
                .findFirst().orElseThrow(() -> new AssertionError("the registry " + url + " has no volume at /var/lib/registry"))
                .getSource();
        return Path.of(storage, "docker/registry/v2/blobs/sha256", digest.hex().substring(0, 2), digest.hex(), "data");
    }

    /** {@code DELETE /v2/NAME/blobs/DIGEST}, as an operator would (the fixture must have been started with deletes enabled). */
    public void deleteBlob(String name, Digest digest) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url + "/v2/" + name + "/blobs/" + digest).toURL().openConnection();
        c.setRequestMethod("DELETE");
        try {
            if (c.getResponseCode() != 202) {
                throw new AssertionError("DELETE of blob " + digest + " in " + name + ": HTTP " + c.getResponseCode());
            }
        } finally {
            c.disconnect();
        }
    }

    public HttpRegistry registry() {
        return new HttpRegistry(url);
    }

    @Override
    public void close() {
        for (var c : docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(RUN_LABEL, run)).exec()) {
            docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
        }
    }
}
