package mesh.model;

import java.util.List;
import java.util.Map;

/**
 * Manifest is one module of the catalogue (docs/manifest.md): its components and
 * the routes it offers. Parsed from YAML by {@link ManifestYaml}, which checks it.
 *
 * @param module     the module's name; {@code <module>.internal} resolves to the node it runs on
 * @param components component name to its spec, in file order
 * @param routes     route name R to what serves it; the mesh name is {@code R.D} (see {@link Route})
 */
public record Manifest(String module, Map<String, Component> components, Map<String, Route> routes) {

    /** Component is a container (image) of a module, as the manifest writes it. */
    public record Component(String image, String bundle, List<String> args, Map<String, String> env,
                            List<String> binds, Map<String, String> volumes, List<Integer> ports,
                            HealthCheck health, List<String> after, Integer stopTimeoutSeconds,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                            Map<String, String> secrets) {

        /** A component that uses no secret. */
        public Component(String image, String bundle, List<String> args, Map<String, String> env,
                         List<String> binds, Map<String, String> volumes, List<Integer> ports,
                         HealthCheck health, List<String> after, Integer stopTimeoutSeconds) {
            this(image, bundle, args, env, binds, volumes, ports, health, after, stopTimeoutSeconds, Map.of());
        }

        public Component {
            secrets = secrets == null ? Map.of() : Map.copyOf(secrets);
            args = args == null ? List.of() : List.copyOf(args);
            env = env == null ? Map.of() : Map.copyOf(env);
            binds = binds == null ? List.of() : List.copyOf(binds);
            volumes = volumes == null ? Map.of() : Map.copyOf(volumes);
            ports = ports == null ? List.of() : List.copyOf(ports);
            after = after == null ? List.of() : List.copyOf(after);
        }
    }

    /**
     * Route is a component port an edge serves under {@code R.D} (docs/edge.md, "Which edge serves a
     * route"). R {@value #WILDCARD} is the wildcard route: every name under D that no other route has.
     *
     * @param domain D, the public domain to serve it under, or null for the public domain of the
     *               node the module runs on; the node with public domain D serves it with its edge
     */
    public record Route(String component, Integer port, String domain) {

        /** WILDCARD is the route name of {@code *.D}. */
        public static final String WILDCARD = "*";

        /** A route under the public domain of the node its module runs on. */
        public Route(String component, Integer port) {
            this(component, port, null);
        }
    }

    public Manifest {
        components = components == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(components));
        routes = routes == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(routes));
    }

    /** The name every module answers to on the mesh. */
    public String internalName() {
        return module + ".internal";
    }
}
