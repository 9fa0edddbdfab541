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
public record Manifest(String module, Map<String, Component> components, Map<String, Route> routes,
                       @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                       Backup backup) {

    /** A module without a backup schedule. */
    public Manifest(String module, Map<String, Component> components, Map<String, Route> routes) {
        this(module, components, routes, null);
    }

    /**
     * Backup is the module's {@code backup:} (docs/backup.md): how often the controller backs it up ({@code every},
     * seconds; null: only by hand), how many backups it keeps ({@code keep}), which volumes a backup holds ({@code
     * volumes}; empty: all of them) and the registry it goes to ({@code registry}, a URL; null: the mesh's own).
     */
    public record Backup(Long every, Integer keep, List<String> volumes, String registry) {

        /** How many backups are kept when the manifest does not say. */
        public static final int KEEP = 7;

        public Backup {
            volumes = volumes == null ? List.of() : List.copyOf(volumes);
        }

        /** The number of backups kept. */
        public int kept() {
            return keep == null ? KEEP : keep;
        }
    }

    /** The module's backup settings, defaults when the manifest has none. */
    public Backup backupOrDefault() {
        return backup == null ? new Backup(null, null, List.of(), null) : backup;
    }

    /**
     * The commands run before a backup, by component: a component's {@code backup:} makes a consistent copy of its data
     * while it runs (a {@code pg_dump} into a volume), so the module is not stopped for the copy.
     */
    public Map<String, List<String>> backupCommands() {
        Map<String, List<String>> commands = new java.util.LinkedHashMap<>();
        components.forEach((name, c) -> {
            if (c.backup() != null && !c.backup().isEmpty()) {
                commands.put(name, c.backup());
            }
        });
        return commands;
    }

    /** Component is a container (image) of a module, as the manifest writes it. */
    public record Component(String image, String bundle, List<String> args, Map<String, String> env,
                            List<String> binds, Map<String, String> volumes, List<Integer> ports,
                            HealthCheck health, List<String> after, Integer stopTimeoutSeconds,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                            Map<String, String> secrets,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                            List<String> backup,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                            String replace) {

        /** A component replaced the usual way, stop-first (no {@code replace:}). */
        public Component(String image, String bundle, List<String> args, Map<String, String> env,
                         List<String> binds, Map<String, String> volumes, List<Integer> ports,
                         HealthCheck health, List<String> after, Integer stopTimeoutSeconds, Map<String, String> secrets,
                         List<String> backup) {
            this(image, bundle, args, env, binds, volumes, ports, health, after, stopTimeoutSeconds, secrets, backup, null);
        }

        /** A component without a backup command. */
        public Component(String image, String bundle, List<String> args, Map<String, String> env,
                         List<String> binds, Map<String, String> volumes, List<Integer> ports,
                         HealthCheck health, List<String> after, Integer stopTimeoutSeconds, Map<String, String> secrets) {
            this(image, bundle, args, env, binds, volumes, ports, health, after, stopTimeoutSeconds, secrets, null);
        }

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
            backup = backup == null || backup.isEmpty() ? null : List.copyOf(backup);
            replace = ComponentSpec.STOP_FIRST.equals(replace) ? null : replace;
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
