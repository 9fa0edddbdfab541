package mesh.host;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mesh.model.Labels;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;

/**
 * TwoAgents is two real host agents on two of the test bed's simulated nodes, for the agent-to-agent ITs of a take
 * (TakeAgentIT, TakeRangesIT): each agent runs in its node's network namespace and keeps that node's own engine, as a
 * node of a name of its own ({@code PREFIX-a-RUN}, {@code PREFIX-b-RUN}), so it sees and touches only what its test
 * made on the engines whatever else the nodes hold. {@link #close} kills both agents and removes what they made: the
 * nodes' containers, the module's network and volumes, the temporary folders.
 */
final class TwoAgents implements AutoCloseable {

    final String run = UUID.randomUUID().toString().substring(0, 8);
    final String module;
    final String nodeA;
    final String nodeB;
    final TestbedNodes.Node n1;
    final TestbedNodes.Node n2;
    final DockerClient docker1;
    final DockerClient docker2;
    final Path stateA;
    final Path stateB;
    final Path logs;
    final AgentProcess a;
    final AgentProcess b;
    private final List<Path> temps = new ArrayList<>();

    /**
     * Starts both agents (60 s each at most) for the module {@code modulePrefix + run}; their logs go to
     * {@code <build>/<logFolder>/<run>/a-1.log} and {@code b-1.log}.
     */
    TwoAgents(String prefix, String modulePrefix, String logFolder) throws Exception {
        module = modulePrefix + run;
        nodeA = prefix + "-a-" + run;
        nodeB = prefix + "-b-" + run;
        List<TestbedNodes.Node> nodes = TestbedNodes.up(2);
        n1 = nodes.get(0);
        n2 = nodes.get(1);
        docker1 = TestbedNodes.client(n1);
        docker2 = TestbedNodes.client(n2);
        Path app = PackagedMesh.copyApp(temp("mesh-" + prefix + "-app-"));
        stateA = temp("mesh-" + prefix + "-a-");
        stateB = temp("mesh-" + prefix + "-b-");
        logs = PackagedMesh.buildDir().resolve(logFolder).resolve(run);
        a = new AgentProcess(app, nodeA, "token-a-" + run, stateA, n1.dockerHost(), n1.name(), n1.address(),
                PackagedMesh.freePort());
        b = new AgentProcess(app, nodeB, "token-b-" + run, stateB, n2.dockerHost(), n2.name(), n2.address(),
                PackagedMesh.freePort());
        try {
            a.start(logs.resolve("a-1.log"), Duration.ofSeconds(60));
            b.start(logs.resolve("b-1.log"), Duration.ofSeconds(60));
        } catch (Exception | AssertionError e) {
            close();
            throw e;
        }
    }

    private static List<Container> containers(DockerClient docker, String node) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.NODE, node)).exec();
    }

    /** A temporary folder removed at {@link #close}. */
    Path temp(String prefix) throws IOException {
        Path p = Files.createTempDirectory(prefix);
        temps.add(p);
        return p;
    }

    @Override
    public void close() throws Exception {
        for (AgentProcess agent : new AgentProcess[] {a, b}) {
            if (agent != null) {
                agent.kill();
            }
        }
        for (DockerClient docker : new DockerClient[] {docker1, docker2}) {
            for (String node : List.of(nodeA, nodeB)) {
                for (Container c : containers(docker, node)) {
                    try {
                        docker.removeContainerCmd(c.getId()).withForce(true).exec();
                    } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
                        // the killed agent's last removal finished meanwhile
                    } catch (com.github.dockerjava.api.exception.ConflictException underWay) {
                        // the killed agent's last removal is still under way in the engine ("… is already in progress")
                        PackagedMesh.await("the engine finishes removing " + c.getId(), Duration.ofSeconds(60),
                                () -> containers(docker, node).stream().noneMatch(left -> left.getId().equals(c.getId())));
                    }
                }
            }
            docker.listNetworksCmd().exec().stream().filter(n -> n.getName().equals(module))
                    .forEach(n -> docker.removeNetworkCmd(n.getId()).exec());
            var volumes = docker.listVolumesCmd().exec().getVolumes();
            if (volumes != null) {
                volumes.stream().filter(v -> v.getName().startsWith(module + "_"))
                        .forEach(v -> docker.removeVolumeCmd(v.getName()).exec());
            }
            docker.close();
        }
        for (Path p : temps) {
            PackagedMesh.deleteTree(p);
        }
    }
}
