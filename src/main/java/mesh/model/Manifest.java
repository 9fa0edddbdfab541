package mesh.model;

import java.util.List;
import java.util.Map;

/**
 * Manifest is one module of the catalogue (docs/manifest.md): its components and
 * the routes it offers. Parsed from YAML by {@link ManifestYaml}, which checks it.
 *
 * @param module     the module's name; {@code <module>.internal} resolves to the node it runs on
 * @param components component name to its spec, in file order
 * @param routes     route name R to what serves it; the mesh name is {@code R.<public domain of the node>}
 */
public record Manifest(String module, Map<String, Component> components, Map<String, Route> routes) {

    /** Component is a container (image) of a module, as the manifest writes it. */
    public record Component(String image, String bundle, List<String> args, Map<String, String> env,
                            List<String> binds, Map<String, String> volumes, List<Integer> ports,
                            HealthCheck health, List<String> after, Integer stopTimeoutSeconds) {
        public Component {
            args = args == null ? List.of() : List.copyOf(args);
            env = env == null ? Map.of() : Map.copyOf(env);
            binds = binds == null ? List.of() : List.copyOf(binds);
            volumes = volumes == null ? Map.of() : Map.copyOf(volumes);
            ports = ports == null ? List.of() : List.copyOf(ports);
            after = after == null ? List.of() : List.copyOf(after);
        }
    }

    /** Route is a component port the node's edge serves under {@code R.<public domain>}. */
    public record Route(String component, Integer port) {
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
