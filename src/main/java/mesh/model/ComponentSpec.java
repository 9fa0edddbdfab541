package mesh.model;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ComponentSpec is one component a node must run, a container ({@code image}) or a process ({@code bundle}), as the controller plans it and the declaration
 * carries it. What the host sends its engine is {@link ContainerRequest#of}, built from it.
 *
 * @param module             the module it belongs to; its volumes are the module's data
 * @param name               the container's name on its node, and its name on the module's network
 * @param image              the image to run; null for a process
 * @param bundle             for a process ({@code bundle:} in the manifest): its bundle, always pinned as
 *                           {@code NAME@sha256:HEX} in a declaration; null for a container
 * @param args               command arguments; empty keeps the image's own command
 * @param env                environment variables
 * @param volumes            module volume name to path in the container; never deleted by apply
 * @param ports              container ports published on the node's address, same number outside
 * @param hosts              mesh name to address, for exactly the names this component binds
 * @param health             how to tell it is ready; null means "running is ready"
 * @param after              components (on this node) that must be healthy before this one starts
 * @param stopTimeoutSeconds how long a stop waits after SIGTERM before it kills
 * @param network            the module's own network, shared by its components
 * @param secrets            environment variable to the secret that gives its value ({@link SecretRef});
 *                           absent from JSON when empty, so a component without secrets reads as before
 * @param replace            {@value #START_FIRST} when a change cuts over (docs/cutover.md), else null (stop-first);
 *                           absent from JSON when null and not digested: opting in replaces nothing by itself
 */
public record ComponentSpec(
        String module,
        String name,
        String image,
        String bundle,
        List<String> args,
        Map<String, String> env,
        Map<String, String> volumes,
        List<Integer> ports,
        Map<String, String> hosts,
        HealthCheck health,
        List<String> after,
        Integer stopTimeoutSeconds,
        String network,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
        Map<String, SecretRef> secrets,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        String replace) {

    /** START_FIRST is {@code replace: start-first}: a change starts the new container beside the old, then cuts over. */
    public static final String START_FIRST = "start-first";
    /** STOP_FIRST is the default replace: stop the old container, then create and start the new one. */
    public static final String STOP_FIRST = "stop-first";

    /** A spec replaced stop-first. */
    public ComponentSpec(String module, String name, String image, String bundle, List<String> args, Map<String, String> env,
                         Map<String, String> volumes, List<Integer> ports, Map<String, String> hosts, HealthCheck health,
                         List<String> after, Integer stopTimeoutSeconds, String network, Map<String, SecretRef> secrets) {
        this(module, name, image, bundle, args, env, volumes, ports, hosts, health, after, stopTimeoutSeconds, network,
                secrets, null);
    }

    /** DEFAULT_STOP_TIMEOUT_SECONDS is Docker's own default grace period. */
    public static final int DEFAULT_STOP_TIMEOUT_SECONDS = 10;

    /** A spec that uses no secret. */
    public ComponentSpec(String module, String name, String image, String bundle, List<String> args, Map<String, String> env,
                         Map<String, String> volumes, List<Integer> ports, Map<String, String> hosts, HealthCheck health,
                         List<String> after, Integer stopTimeoutSeconds, String network) {
        this(module, name, image, bundle, args, env, volumes, ports, hosts, health, after, stopTimeoutSeconds, network, Map.of());
    }

    /** A container's spec (no bundle). */
    public ComponentSpec(String module, String name, String image, List<String> args, Map<String, String> env,
                         Map<String, String> volumes, List<Integer> ports, Map<String, String> hosts, HealthCheck health,
                         List<String> after, Integer stopTimeoutSeconds, String network) {
        this(module, name, image, null, args, env, volumes, ports, hosts, health, after, stopTimeoutSeconds, network);
    }

    public ComponentSpec {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : sorted(env);
        volumes = volumes == null ? Map.of() : sorted(volumes);
        ports = ports == null ? List.of() : List.copyOf(ports);
        hosts = hosts == null ? Map.of() : sorted(hosts);
        after = after == null ? List.of() : List.copyOf(after);
        secrets = secrets == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(secrets));
        replace = STOP_FIRST.equals(replace) ? null : replace;
    }

    /** Whether a change of this component cuts over (start-first) instead of stopping it first. */
    public boolean startFirst() {
        return START_FIRST.equals(replace);
    }

    /** This spec with {@code after} replaced (the same component otherwise). */
    public ComponentSpec withAfter(List<String> names) {
        return new ComponentSpec(module, name, image, bundle, args, env, volumes, ports, hosts, health, names,
                stopTimeoutSeconds, network, secrets, replace);
    }

    /** This spec running {@code pinned} (a process's bundle resolved to its digest). */
    public ComponentSpec withBundle(String pinned) {
        return new ComponentSpec(module, name, null, pinned, args, env, volumes, ports, hosts, health, after,
                stopTimeoutSeconds, network, secrets, replace);
    }

    /** This spec with its secrets replaced by {@code refs} (variable to reference). */
    public ComponentSpec withSecrets(Map<String, SecretRef> refs) {
        return new ComponentSpec(module, name, image, bundle, args, env, volumes, ports, hosts, health, after,
                stopTimeoutSeconds, network, refs, replace);
    }

    /** This spec as the store and every view keep it: each secret's reference without its value. */
    public ComponentSpec withoutSecretValues() {
        if (secrets.isEmpty()) {
            return this;
        }
        Map<String, SecretRef> refs = new TreeMap<>();
        secrets.forEach((k, v) -> refs.put(k, v.withoutValue()));
        return withSecrets(refs);
    }

    /** Whether this component runs as a supervised process (a bundle) rather than a container. */
    public boolean process() {
        return bundle != null;
    }

    public int stopTimeout() {
        return stopTimeoutSeconds == null ? DEFAULT_STOP_TIMEOUT_SECONDS : stopTimeoutSeconds;
    }

    private static Map<String, String> sorted(Map<String, String> map) {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(map));
    }

    /**
     * The variable a process reads its volume's folder from: {@code MESH_VOLUME_<VOLUME>}, upper case,
     * other characters as '_'. Two volumes of one process that give the same variable are refused
     * by the manifest's check, since one of them would be unreachable.
     */
    public static String volumeVariable(String volume) {
        return "MESH_VOLUME_" + volume.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }
}
