package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.Cidr;
import mesh.plan.NetworkRange;
import mesh.testbed.InstalledMesh;
import mesh.testbed.InstalledMeshTest;
import mesh.testbed.PackagedMesh;
import mesh.trust.Pem;
import mesh.trust.TlsContexts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * ManyModulesIT is the hub of docs/declaration.md, "Module networks": one node of a mesh raised by
 * {@code mesh install} runs 120 modules, each on its own bridge network, where Docker's default pools hold
 * about 30. After {@code mesh push --wait} every
 * container runs and every module network has its own /26 inside the node's range (the default,
 * {@link NetworkRange#DEFAULT}) overlapping no other network of the engine; a module removed and added
 * again gets a subnet that overlaps none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@InstalledMeshTest
class ManyModulesIT {

    static final int MODULES = 120;
    static final String AGAIN = "m060";

    InstalledMesh mesh;
    DockerClient engine;

    @BeforeAll
    void raise() throws Exception {
        long t0 = System.nanoTime();
        mesh = InstalledMesh.raise(1);
        engine = mesh.engine("n1");
        Path dir = Files.createTempDirectory("mesh-many-modules");
        for (String m : modules()) {
            Files.writeString(dir.resolve(m + ".yaml"), """
                    module: %1$s
                    components:
                      %1$s.app:
                        image: mesh-test/busybox:1
                        args: [sh, -c, 'trap "exit 0" TERM; while :; do sleep 1; done']
                        stop-timeout: 1s
                    """.formatted(m));
        }
        mesh.ok("catalogue", "add", dir.toString());
        PackagedMesh.deleteTree(dir);
        HttpClient http = operatorHttp();
        for (String m : modules()) {   // the API, not 120 CLI starts: what `mesh assign n1 m` sends
            placement(http, "PUT", m);
        }
        long t1 = System.nanoTime();
        // the run's own deadline above the verb's --wait-timeout: 120 containers and networks on a loaded 2-core machine
        // took over the default 120 s once (a CI run with a test beside it); the verb's own 600 s is the bound that counts
        PackagedMesh.Result pushed = mesh.meshWithin(Duration.ofSeconds(660), "push", "--wait", "--wait-timeout", "600");
        assertEquals(0, pushed.exit(), pushed.toString());
        System.err.printf("ManyModulesIT: raise + catalogue + assign %.1f s, push --wait of %d modules %.1f s%n",
                (t1 - t0) / 1e9, MODULES, (System.nanoTime() - t1) / 1e9);
    }

    @AfterAll
    void close() throws Exception {
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    @Order(1)
    void aHundredAndTwentyModulesRunEachOnItsOwnSubnetInsideTheRange() {
        List<Container> containers = engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("mesh.node", "n1")).exec().stream()
                .filter(c -> c.getLabels().getOrDefault("mesh.module", "").matches("m\\d{3}")).toList();
        assertEquals(MODULES, containers.size(), "one container per module");
        containers.forEach(c -> assertEquals("running", c.getState(), c.getNames()[0] + " is " + c.getState()));

        Map<String, Cidr> subnets = moduleSubnets();
        assertEquals(modules(), new ArrayList<>(subnets.keySet()), "one network per module");
        subnets.forEach((m, s) -> {
            assertTrue(NetworkRange.DEFAULT.contains(s), m + "'s network " + s + " lies outside " + NetworkRange.DEFAULT);
            assertEquals(NetworkRange.SLOT_PREFIX, s.prefix(), m + "'s network " + s);
        });
        assertNoOverlap();
    }

    @Test
    @Order(2)
    void aModuleRemovedAndAddedAgainGetsASubnetThatOverlapsNone() throws Exception {
        HttpClient http = operatorHttp();
        placement(http, "DELETE", AGAIN);
        mesh.ok("push", "--wait", "--wait-timeout", "300");
        assertFalse(moduleSubnets().containsKey(AGAIN), AGAIN + "'s network is left over after it was removed");

        placement(http, "PUT", AGAIN);
        mesh.ok("push", "--wait", "--wait-timeout", "300");
        Cidr again = moduleSubnets().get(AGAIN);
        assertTrue(again != null && NetworkRange.DEFAULT.contains(again), AGAIN + " came back on " + again);
        assertNoOverlap();
    }

    /** No two networks of the engine share an address: the modules', the seat's own and Docker's. */
    void assertNoOverlap() {
        Map<String, Cidr> all = new TreeMap<>();
        for (Network n : engine.listNetworksCmd().exec()) {
            subnet(n).ifPresent(s -> all.put(n.getName(), s));
        }
        List<String> names = new ArrayList<>(all.keySet());
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                assertFalse(all.get(names.get(i)).overlaps(all.get(names.get(j))), names.get(i) + " "
                        + all.get(names.get(i)) + " overlaps " + names.get(j) + " " + all.get(names.get(j)));
            }
        }
    }

    /** The mesh's networks of modules m001..m120 on the engine: module → its subnet. */
    Map<String, Cidr> moduleSubnets() {
        Map<String, Cidr> found = new TreeMap<>();
        for (Network n : engine.listNetworksCmd().withFilter("label", List.of("mesh.node=n1")).exec()) {
            String module = n.getLabels().getOrDefault("mesh.module", "");
            if (module.matches("m\\d{3}")) {
                Cidr s = subnet(n).orElseThrow(() -> new AssertionError(n.getName() + " has no IPv4 subnet"));
                assertEquals(null, found.put(module, s), module + " has two networks");
            }
        }
        return found;
    }

    static java.util.Optional<Cidr> subnet(Network n) {
        if (n.getIpam() == null || n.getIpam().getConfig() == null) {
            return java.util.Optional.empty();
        }
        return n.getIpam().getConfig().stream().map(Network.Ipam.Config::getSubnet)
                .filter(s -> s != null && !s.contains(":")).findFirst()
                .map(s -> Cidr.parse(s, "the engine's subnet of " + n.getName()));
    }

    static List<String> modules() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= MODULES; i++) {
            names.add("m%03d".formatted(i));
        }
        return names;
    }

    HttpClient operatorHttp() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(TlsContexts.trusting(Pem.certificate(Path.of(mesh.cliEnv().get("MESH_CA")))))
                .build();
    }

    /** PUT (assign) or DELETE (unassign) {@code module} on n1, as {@code mesh assign n1 MODULE} sends it. */
    void placement(HttpClient http, String method, String module) throws Exception {
        Map<String, String> env = new HashMap<>(mesh.cliEnv());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(env.get("MESH_CONTROLLER")
                        + "/v1/mesh/nodes/n1/modules/" + module))
                .header("Authorization", "Bearer " + env.get("MESH_TOKEN")).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(2, r.statusCode() / 100, method + " " + module + ": " + r.statusCode() + " " + r.body());
    }
}
