package mesh.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mesh.testbed.TestbedNodes.Node;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The test bed's promise to every multi-node test: a container on one node reaches a port that
 * another node's engine published on that node's address, by a name given with --add-host. Three
 * real engines in three network namespaces; nothing is mocked.
 */
class CrossNodeReachIT {

    static final String IMAGE = "mesh-test/busybox:1";
    static final String RUN_LABEL = "mesh.test.run";
    static final String RUN = UUID.randomUUID().toString();
    static final int WEB_PORT = 18080;
    static final String GREETING = "hello-from-n2";

    static List<Node> nodes;
    static final Map<Node, DockerClient> clients = new LinkedHashMap<>();
    static Node n1;
    static Node n2;
    static Node n3;

    @BeforeAll
    static void raiseNodesAndServeOnN2() {
        nodes = TestbedNodes.up(3);
        for (Node node : nodes) {
            clients.put(node, TestbedNodes.client(node));
        }
        n1 = nodes.get(0);
        n2 = nodes.get(1);
        n3 = nodes.get(2);

        // httpd on n2, its port 8080 published on n2's own address only.
        ExposedPort http = ExposedPort.tcp(8080);
        Ports bindings = new Ports();
        bindings.bind(http, Ports.Binding.bindIpAndPort(n2.address(), WEB_PORT));
        String web = clients.get(n2).createContainerCmd(IMAGE)
                .withName("web-" + RUN.substring(0, 8))
                .withLabels(Map.of(RUN_LABEL, RUN))
                .withExposedPorts(http)
                .withHostConfig(HostConfig.newHostConfig().withPortBindings(bindings))
                .withCmd("sh", "-c", "mkdir -p /www && echo " + GREETING + " > /www/index.html && exec httpd -f -p 8080 -h /www")
                .exec().getId();
        clients.get(n2).startContainerCmd(web).exec();
        assertTrue(clients.get(n2).inspectContainerCmd(web).exec().getState().getRunning(), "web container runs on n2");
    }

    @AfterAll
    static void removeEverythingThisRunMade() {
        List<RuntimeException> failures = new ArrayList<>();
        for (var entry : clients.entrySet()) {
            DockerClient docker = entry.getValue();
            try {
                for (var c : docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(RUN_LABEL, RUN)).exec()) {
                    docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                }
                assertEquals(0, docker.listContainersCmd().withShowAll(true)
                        .withLabelFilter(Map.of(RUN_LABEL, RUN)).exec().size(), "containers left on " + entry.getKey().name());
            } catch (RuntimeException e) {
                failures.add(e);
            } catch (AssertionError e) {
                failures.add(new IllegalStateException(e.getMessage(), e));
            } finally {
                try {
                    docker.close();
                } catch (Exception ignored) {
                    // closing a client cannot fail the cleanup of the others
                }
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    @Test
    void nodesHaveTheirOwnAddressesAndEngines() {
        assertEquals(List.of("n1", "n2", "n3"), nodes.stream().map(Node::name).toList());
        assertEquals(List.of("10.77.0.11", "10.77.0.12", "10.77.0.13"), nodes.stream().map(Node::address).toList());
        for (Node node : nodes) {
            assertEquals("unix:///run/mesh-" + node.name() + "/docker.sock", node.dockerHost());
            var info = clients.get(node).infoCmd().exec();
            assertTrue(info.getLabels() != null && List.of(info.getLabels()).contains("mesh.testbed.node=" + node.name()),
                    node.name() + "'s socket is served by " + node.name() + "'s own engine");
        }
        assertTrue(TestbedNodes.list().containsAll(nodes), "nodes list shows the nodes that are up");
    }

    @Test
    void containerOnN1ReachesPortPublishedOnN2ByName() throws InterruptedException {
        // The server needs a moment to listen after start: retry briefly inside the client container.
        Result r = runOn(n1, "web.internal:" + n2.address(),
                "cat /etc/hosts; echo ---; for i in 1 2 3 4 5 6 7 8 9 10; do "
                        + "printf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' | nc -w 5 web.internal " + WEB_PORT
                        + " && exit 0; sleep 0.5; done; exit 1");
        String hosts = r.output().substring(0, r.output().indexOf("---"));
        assertTrue(hosts.matches("(?s).*\\b" + n2.address().replace(".", "\\.") + "\\s+web\\.internal\\b.*"),
                "/etc/hosts of the client names web.internal as n2's address:\n" + hosts);
        assertTrue(r.output().contains("200 OK"), "HTTP 200 from n2:\n" + r.output());
        assertTrue(r.output().contains(GREETING), "n1 got n2's page:\n" + r.output());
        assertEquals(0, r.exitCode(), r.output());
    }

    @Test
    void negativeControlWrongAddressDoesNotReachN2() throws InterruptedException {
        // Same client, but web.internal points at n3, where nothing listens on the port.
        Result r = runOn(n1, "web.internal:" + n3.address(),
                "grep web.internal /etc/hosts; printf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' | nc -w 5 web.internal " + WEB_PORT);
        assertTrue(r.output().contains(n3.address()), "the client resolved web.internal to n3:\n" + r.output());
        assertFalse(r.output().contains(GREETING), "nothing on n3 serves n2's page:\n" + r.output());
        assertNotEquals(0, r.exitCode(), "nc to n3:" + WEB_PORT + " fails:\n" + r.output());
    }

    record Result(int exitCode, String output) {
    }

    /** Runs a busybox shell command in a labelled container on the node and returns its exit code and output. */
    static Result runOn(Node node, String extraHost, String script) throws InterruptedException {
        DockerClient docker = clients.get(node);
        String id = docker.createContainerCmd(IMAGE)
                .withLabels(Map.of(RUN_LABEL, RUN))
                .withHostConfig(HostConfig.newHostConfig().withExtraHosts(extraHost))
                .withCmd("sh", "-c", script)
                .exec().getId();
        docker.startContainerCmd(id).exec();
        int code = docker.waitContainerCmd(id).start().awaitStatusCode(60, TimeUnit.SECONDS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        docker.logContainerCmd(id).withStdOut(true).withStdErr(true).withFollowStream(false)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        out.writeBytes(frame.getPayload());
                    }
                }).awaitCompletion(30, TimeUnit.SECONDS);
        return new Result(code, out.toString(StandardCharsets.UTF_8));
    }
}
