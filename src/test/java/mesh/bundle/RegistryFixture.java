package mesh.bundle;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
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
    static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");
    static final String RUN_LABEL = "mesh.test.run";

    final String run = "bundle-it-" + UUID.randomUUID().toString().substring(0, 8);
    final DockerClient docker;
    final int port = PackagedMesh.freePort();
    public final String url;

    public RegistryFixture() throws InterruptedException {
        this(ENGINE, "127.0.0.1");
    }

    /** A registry on {@code engine} (a simulated node's, say), published on {@code address} (that node's). */
    public RegistryFixture(String engine, String address) throws InterruptedException {
        docker = TestbedNodes.client(engine);
        url = "http://" + address + ":" + port;
        ExposedPort api = ExposedPort.tcp(5000);
        Ports ports = new Ports();
        ports.bind(api, Ports.Binding.bindIpAndPort(address, port));
        String id = docker.createContainerCmd(IMAGE).withName(run).withLabels(Map.of(RUN_LABEL, run))
                .withExposedPorts(api).withHostConfig(HostConfig.newHostConfig().withPortBindings(ports)).exec().getId();
        docker.startContainerCmd(id).exec();
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
