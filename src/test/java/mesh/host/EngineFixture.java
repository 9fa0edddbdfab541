package mesh.host;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mesh.model.Labels;

/**
 * EngineFixture is a test's view of the real engine: a node name unique to the run (every container
 * the agent makes carries it as its node label), a docker-java client for looking behind the
 * agent's back, and a cleanup that removes by that label what the run made.
 */
final class EngineFixture implements AutoCloseable {

    static final String ENGINE = System.getenv().getOrDefault("MESH_TEST_ENGINE", "unix:///var/run/docker.sock");

    final String node = "it-" + UUID.randomUUID().toString().substring(0, 8);
    final DockerClient docker;

    EngineFixture() {
        docker = mesh.testbed.TestbedNodes.client(ENGINE);
    }

    /** A name unique to this run, for containers, modules and networks. */
    String name(String base) {
        return node + "-" + base;
    }

    InspectContainerResponse inspect(String name) {
        return docker.inspectContainerCmd(name).exec();
    }

    /** Runs a command in a container and returns what it printed. */
    String exec(String container, String... command) throws InterruptedException {
        String id = docker.execCreateCmd(container).withCmd(command).withAttachStdout(true).withAttachStderr(true)
                .exec().getId();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        docker.execStartCmd(id).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                out.writeBytes(frame.getPayload());
            }
        }).awaitCompletion(30, TimeUnit.SECONDS);
        return out.toString(StandardCharsets.UTF_8);
    }

    List<com.github.dockerjava.api.model.Container> containers() {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.NODE, node)).exec();
    }

    @Override
    public void close() {
        for (var c : containers()) {
            docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(false).exec();
        }
        docker.listNetworksCmd().exec().stream()
                .filter(n -> n.getLabels() != null && node.equals(n.getLabels().get(Labels.NODE)))
                .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
        docker.listVolumesCmd().withFilter("label", List.of(Labels.NODE + "=" + node)).exec().getVolumes()
                .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
    }
}
