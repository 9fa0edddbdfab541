package mesh.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import mesh.model.DeclarationJson;
import mesh.testbed.InstalledNode;
import mesh.testbed.TestbedNodes;

/**
 * MeshState is what an install leaves on its seat, in a form two installs can be compared by: the
 * controller's nodes, catalogue (each module's manifest, assignment and placement) and roster, read
 * over its API with the config file install wrote; the seat's containers (name, image, state, env,
 * mounts, ports) from its engine; and its supervised processes (spec and the number of live copies
 * {@code /proc} shows). The install's generated secrets and the controller epoch differ from one
 * install to the next and are replaced by their names, so equal states mean equal meshes.
 */
record MeshState(List<String> nodes, List<String> catalogue, List<String> roster, List<String> containers,
                 List<String> processes) {

    /** The secrets.env keys whose values are generated per install (see {@code InstallJournal}). */
    static final List<String> GENERATED = List.of("MESH_CONTROLLER_TOKEN", "MESH_STORE_PASSWORD", "EPOCH");

    static MeshState of(InstalledNode target) throws Exception {
        Map<String, String> secrets = secrets(target.state().resolve("install/secrets.env"));
        Map<String, String> config = envFile(target.home().resolve(".config/mesh/config"));
        String url = config.get("MESH_CONTROLLER");
        String token = config.get("MESH_TOKEN");
        String ca = config.get("MESH_CA");
        List<String> nodes = new ArrayList<>();
        for (JsonNode n : get(url, token, ca, "/v1/mesh/nodes")) {
            nodes.add(n.path("name").asText() + " " + n.path("address").asText() + " " + n.path("publicDomain").asText());
        }
        List<String> catalogue = new ArrayList<>();
        for (JsonNode m : get(url, token, ca, "/v1/mesh/catalogue")) {
            JsonNode d = get(url, token, ca, "/v1/mesh/catalogue/" + m.path("module").asText());
            catalogue.add(mask(d.path("module").asText() + " assigned=" + d.path("assigned").asText() + " taken="
                    + d.path("taken").asText() + " " + canonical(d.path("manifest")), secrets));
        }
        List<String> roster = new ArrayList<>();
        for (JsonNode r : get(url, token, ca, "/v1/mesh/roster")) {
            roster.add(canonical(r));
        }
        return new MeshState(sorted(nodes), sorted(catalogue), sorted(roster), containers(target, secrets),
                processes(target, secrets));
    }

    private static List<String> containers(InstalledNode target, Map<String, String> secrets) throws IOException {
        List<String> all = new ArrayList<>();
        try (DockerClient docker = TestbedNodes.client(target.node)) {
            for (Container c : docker.listContainersCmd().withShowAll(true)
                    .withLabelFilter(Map.of("mesh.node", target.node.name())).exec()) {
                InspectContainerResponse i = docker.inspectContainerCmd(c.getId()).exec();
                List<String> env = sorted(List.of(i.getConfig().getEnv()));
                List<String> mounts = sorted(i.getMounts().stream().map(m -> m.getName() + ":" + m.getDestination()).toList());
                all.add(mask(c.getNames()[0] + " image=" + c.getImage() + " state=" + c.getState() + " env=" + env
                        + " mounts=" + mounts + " ports=" + ports(i), secrets));
            }
        }
        return sorted(all);
    }

    /** The published ports as {@code 5432/tcp->10.77.0.11:5432}, sorted. */
    private static List<String> ports(InspectContainerResponse i) {
        List<String> ports = new ArrayList<>();
        var bindings = i.getHostConfig().getPortBindings();
        if (bindings != null) {
            bindings.getBindings().forEach((port, to) -> {
                for (var b : to == null ? new com.github.dockerjava.api.model.Ports.Binding[0] : to) {
                    ports.add(port + "->" + b.getHostIp() + ":" + b.getHostPortSpec());
                }
            });
        }
        return sorted(ports);
    }

    private static List<String> processes(InstalledNode target, Map<String, String> secrets) throws IOException {
        List<String> all = new ArrayList<>();
        Path dir = target.state().resolve("host/processes");
        if (!Files.isDirectory(dir)) {
            return all;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode r = DeclarationJson.MAPPER.readTree(f.toFile());
                JsonNode spec = r.path("spec");
                String component = spec.path("component").asText();
                Map<String, String> env = new TreeMap<>();
                spec.path("env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
                all.add(mask(component + " bundle=" + spec.path("bundleDir").asText() + " exec=" + spec.path("executable").asText()
                        + " args=" + spec.path("args") + " env=" + env + " hosts=" + canonical(spec.path("hosts")) + " live copies="
                        + copies(component, target.state()), secrets));
            }
        }
        return all;
    }

    /**
     * How many shims of {@code component} of the mesh whose state folder is {@code state} {@code /proc} shows
     * (argv: sh -c SCRIPT mesh-shim COMPONENT DIGEST …, then paths under the state folder): another suite's
     * mesh on this machine runs a controller too.
     */
    static long copies(String component, Path state) throws IOException {
        long n = 0;
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String[] argv = Files.readString(p.resolve("cmdline")).split("\0");
                    if (argv.length > 4 && argv[3].equals("mesh-shim") && argv[4].equals(component)
                            && String.join(" ", argv).contains(state + "/")) {
                        n++;
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return n;
    }

    /** The JSON with every object's keys sorted: maps (env, hosts) come in no fixed order. */
    static String canonical(JsonNode node) throws IOException {
        return SORTED.writeValueAsString(SORTED.treeToValue(node, Object.class));
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper SORTED = new com.fasterxml.jackson.databind.ObjectMapper()
            .configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private static String mask(String s, Map<String, String> secrets) {
        for (Map.Entry<String, String> e : secrets.entrySet()) {
            s = s.replace(e.getValue(), "<" + e.getKey() + ">");
        }
        return s;
    }

    private static Map<String, String> secrets(Path file) throws IOException {
        Map<String, String> all = envFile(file);
        all.keySet().retainAll(GENERATED);
        all.values().removeIf(String::isEmpty);
        if (all.containsKey("EPOCH")) {   // the permanent controller's epoch is the temporary one's plus one
            all.put("EPOCH+1", Long.toString(Long.parseLong(all.get("EPOCH")) + 1));
        }
        return all;
    }

    /** KEY=VALUE lines, the last one of a key winning (as InstallJournal reads them). */
    static Map<String, String> envFile(Path file) throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                all.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return all;
    }

    /** A GET of the controller's API, trusting only the mesh CA in {@code caFile} (the operator's MESH_CA). */
    static JsonNode get(String url, String token, String caFile, String path) throws IOException, InterruptedException {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
        if (caFile != null) {
            b.sslContext(mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(java.nio.file.Path.of(caFile))));
        }
        HttpResponse<String> r = b.build().send(
                HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token)
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return DeclarationJson.MAPPER.readTree(r.body());
    }

    private static List<String> sorted(List<String> list) {
        return list.stream().sorted().toList();
    }
}
