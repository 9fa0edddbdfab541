package mesh.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ContainerRequest is exactly what the host asks its engine (or, for a process, its supervisor) to run for one component, as a value
 * (Kamal builds its Docker invocations the same way): the engine edge turns it into a create call
 * field by field and adds nothing, and {@link SpecDigest} hashes the same fields, so what is digested
 * and what is created can never disagree. Pure: {@link #of} reads no engine and no clock.
 *
 * @param name               the container's name, and its alias on the module's network
 * @param module             the module it belongs to; its volumes are {@code <module>_<volume>}
 * @param image              the image to run; null for a process
 * @param bundle             a process's bundle, {@code NAME@sha256:HEX}; null for a container
 * @param args               command arguments; empty keeps the image's own command
 * @param env                environment variables
 * @param hosts              mesh name to address: the {@code /etc/hosts} entries of exactly the names it binds
 * @param volumes            module volume name to path in the container
 * @param ports              container ports, sorted, each published with the same number outside
 * @param publishAddress     where the ports are published; null for all addresses, and always null
 *                           when nothing is published (so a new node address changes only publishers)
 * @param network            the module's own network; null for the engine's default
 * @param stopTimeoutSeconds SIGTERM, then SIGKILL after this many seconds
 * @param labels             the mesh's marks ({@link Labels}); empty for a request only being compared
 * @param secrets            variable to the secret giving its value: digested as its name and keyed
 *                           hash ({@link SecretRef#digestForm}), given to the engine as its value
 * @param beside             for the new copy of a cutover ({@link #beside}): its own container name while the old
 *                           one runs, and container port to the host port it publishes on instead of the same
 *                           number; null otherwise. Not digested: the copy is the declared component
 */
public record ContainerRequest(
        String name,
        String module,
        String image,
        String bundle,
        List<String> args,
        Map<String, String> env,
        Map<String, String> hosts,
        Map<String, String> volumes,
        List<Integer> ports,
        String publishAddress,
        String network,
        int stopTimeoutSeconds,
        Map<String, String> labels,
        Map<String, SecretRef> secrets,
        Beside beside) {

    /**
     * Beside is where a cutover's new copy runs while the old one still serves: {@code containerName} (the
     * component's name is the old copy's until it is removed) and {@code hostPorts}, each container port's host port.
     */
    public record Beside(String containerName, Map<Integer, Integer> hostPorts) {
        public Beside {
            hostPorts = Map.copyOf(hostPorts);
        }
    }

    public ContainerRequest {
        args = args == null ? List.of() : List.copyOf(args);
        env = sorted(env);
        hosts = sorted(hosts);
        volumes = sorted(volumes);
        ports = ports == null ? List.of() : ports.stream().sorted().toList();
        publishAddress = ports.isEmpty() ? null : publishAddress;
        labels = sorted(labels);
        secrets = secrets == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(secrets));
    }

    /** The request for a component of a declaration whose ports publish on {@code publishAddress}, unlabelled. */
    public static ContainerRequest of(ComponentSpec spec, String publishAddress) {
        return new ContainerRequest(spec.name(), spec.module(), spec.image(), spec.bundle(), spec.args(), spec.env(), spec.hosts(),
                spec.volumes(), spec.ports(), publishAddress, spec.network(), spec.stopTimeout(), Map.of(), spec.secrets(), null);
    }

    /** The request as it is sent: {@link #of(ComponentSpec, String)} with the mesh's labels for this node and generation. */
    public static ContainerRequest of(ComponentSpec spec, String publishAddress, String node, long generation) {
        ContainerRequest bare = of(spec, publishAddress);
        return bare.withLabels(Labels.forContainer(node, generation, bare));
    }

    /**
     * The request for component {@code spec} as declaration {@code d} has it, labelled: every container the agent's pass
     * creates, and those a take's target creates before the source's fence (the same container, so the start after the
     * take only starts it).
     */
    public static ContainerRequest declared(ComponentSpec spec, Declaration d) {
        return of(spec, d.address(), d.node(), d.generation());
    }

    public ContainerRequest withLabels(Map<String, String> labels) {
        return new ContainerRequest(name, module, image, bundle, args, env, hosts, volumes, ports, publishAddress, network,
                stopTimeoutSeconds, labels, secrets, beside);
    }

    /** This request run beside its old copy: as {@code containerName}, each port published on {@code hostPorts}'s. */
    public ContainerRequest beside(String containerName, Map<Integer, Integer> hostPorts) {
        return new ContainerRequest(name, module, image, bundle, args, env, hosts, volumes, ports, publishAddress, network,
                stopTimeoutSeconds, labels, secrets, new Beside(containerName, hostPorts));
    }

    /** The engine's name for the container: the component's, or the cutover copy's own while the old one runs. */
    public String containerName() {
        return beside == null ? name : beside.containerName();
    }

    /** The host port container port {@code port} is published on: the same number, but for a cutover's copy. */
    public int hostPort(int port) {
        return beside == null ? port : beside.hostPorts().getOrDefault(port, port);
    }

    /** The engine's volume for a module volume: one per module and name, shared by replaces, never deleted. */
    public String volumeName(String moduleVolume) {
        return module + "_" + moduleVolume;
    }

    /** Engine volume name to path in the container, in the order of the module volume names. */
    public Map<String, String> mounts() {
        Map<String, String> mounts = new LinkedHashMap<>();
        volumes.forEach((volume, path) -> mounts.put(volumeName(volume), path));
        return Collections.unmodifiableMap(mounts);
    }

    /** The hosts as the engine takes them, {@code NAME:ADDRESS}. */
    public List<String> extraHosts() {
        return hosts.entrySet().stream().map(h -> h.getKey() + ":" + h.getValue()).toList();
    }

    /**
     * The environment as the engine takes it, {@code KEY=VALUE}, each secret's variable with its value.
     * A secret without its value cannot be run: the host's intake refuses such a declaration first.
     */
    public List<String> envList() {
        Map<String, String> all = new TreeMap<>(env);
        secrets.forEach((k, ref) -> {
            if (ref.value() == null) {
                throw new IllegalStateException("component " + name + ": " + k + " " + ref.words() + " has no value here");
            }
            all.put(k, ref.value());
        });
        return all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    /** The secrets as digested: variable to {@link SecretRef#digestForm}; null (left out) when there are none. */
    public Map<String, String> secretDigests() {
        if (secrets.isEmpty()) {
            return null;
        }
        Map<String, String> forms = new TreeMap<>();
        secrets.forEach((k, ref) -> forms.put(k, ref.digestForm()));
        return forms;
    }

    private static Map<String, String> sorted(Map<String, String> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(map));
    }
}
