package mesh.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import mesh.model.ManifestNodes.Field;
import org.yaml.snakeyaml.nodes.Node;

/**
 * ManifestComponents reads the fields of one component (everything but its image) and, once all
 * components are read, checks what spans them: {@code after} naming real components without a
 * cycle, and no port published by two components of the module.
 */
final class ManifestComponents {

    private final ManifestNodes nodes;
    private final String path;
    private final Map<String, Field> fields;

    ManifestComponents(ManifestNodes nodes, String path, Map<String, Field> fields) {
        this.nodes = nodes;
        this.path = path;
        this.fields = fields;
    }

    private Node value(String key) {
        return ManifestReader.given(fields, key) ? fields.get(key).value() : null;
    }

    List<String> args() {
        return value("args") == null ? List.of() : nodes.texts(value("args"), path + ".args", "a list of words");
    }

    /** The variables whose value is a secret of the module ({@code NAME: {secret: S}}), read by {@link #env}. */
    private final Map<String, String> secrets = new LinkedHashMap<>();

    /** Variable to secret name, for the variables {@link #env} found written {@code {secret: NAME}}; call after it. */
    Map<String, String> secrets() {
        return secrets;
    }

    Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, Field> given = value("env") == null ? Map.of()
                : nodes.mapping(value("env"), path + ".env", "a mapping of variable name to value", null);
        if (given == null) {
            return env;
        }
        given.forEach((name, f) -> {
            String at = path + ".env." + name;
            if (name.isEmpty() || name.contains("=")) {
                nodes.problem(f.keyNode(), at, "a variable name is not empty and holds no '='");
            } else if (ManifestNodes.isNull(f.value())) {
                nodes.problem(f.value(), at, "needs a value; write " + name + ": \"\" for an empty one");
            } else if (f.value() instanceof org.yaml.snakeyaml.nodes.MappingNode) {
                String secret = secretName(f.value(), at);
                if (secret != null) {
                    secrets.put(name, secret);
                }
            } else {
                String value = nodes.text(f.value(), at);
                if (value != null) {
                    env.put(name, value);
                }
            }
        });
        return env;
    }

    /** The secret a variable names ({@code {secret: db-password}}), or null with the problem said. */
    private String secretName(Node value, String at) {
        Map<String, Field> ref = nodes.mapping(value, at, "a value, or {secret: NAME} for a secret of the module", List.of("secret"));
        if (ref == null || !ManifestReader.given(ref, "secret")) {
            nodes.problem(value, at, "a secret is written {secret: NAME}, NAME set with 'mesh secret set MODULE NAME'");
            return null;
        }
        String name = nodes.text(ref.get("secret").value(), at + ".secret");
        String problem = name == null ? null : SecretNames.problem(name);
        if (problem != null) {
            nodes.problem(ref.get("secret").value(), at + ".secret", problem);
            return null;
        }
        return name;
    }

    List<String> binds() {
        List<String> binds = new ArrayList<>();
        List<Node> items = value("binds") == null ? List.of() : nodes.list(value("binds"), path + ".binds", "a list of host names");
        for (int i = 0; items != null && i < items.size(); i++) {
            String at = path + ".binds[" + i + "]";
            String name = nodes.text(items.get(i), at);
            if (name == null) {
                continue;
            }
            String problem = ManifestCheck.dottedNameProblem(name, ManifestReader.MAX_HOST_NAME);
            if (problem != null && name.matches("[^:]+:\\d+")) {
                nodes.problem(items.get(i), at, ManifestNodes.quoted(name) + " is a host name with a port; binds take the name"
                        + " alone (" + name.substring(0, name.indexOf(':')) + "): the port goes where the component uses it, as in env");
            } else if (problem != null) {
                nodes.problem(items.get(i), at, problem.replace("not a valid name", "not a host name"));
            } else if (binds.contains(name)) {
                nodes.problem(items.get(i), at, ManifestNodes.quoted(name) + " is already in binds[" + binds.indexOf(name) + "]");
            }
            binds.add(name);
        }
        return binds;
    }

    /** The volumes; a process's ({@code process}) must each give their own {@link ComponentSpec#volumeVariable}. */
    Map<String, String> volumes(boolean process) {
        Map<String, String> volumes = new LinkedHashMap<>();
        Map<String, String> byVariable = new HashMap<>();
        Map<String, Field> given = value("volumes") == null ? Map.of()
                : nodes.mapping(value("volumes"), path + ".volumes", "a mapping of volume name to path", null);
        if (given == null) {
            return volumes;
        }
        Map<String, String> byPath = new HashMap<>();
        given.forEach((name, f) -> {
            String at = path + ".volumes." + name;
            String problem = ManifestCheck.volumeNameProblem(name);
            String sameVariable = process ? byVariable.putIfAbsent(ComponentSpec.volumeVariable(name), name) : null;
            if (problem != null) {
                nodes.problem(f.keyNode(), at, problem);
            } else if (sameVariable != null) {
                nodes.problem(f.keyNode(), at, "volumes " + sameVariable + " and " + name + " would both be "
                        + ComponentSpec.volumeVariable(name) + " to the process; rename one");
            }
            String dir = nodes.text(f.value(), at);
            if (dir == null) {
                return;
            }
            problem = ManifestCheck.volumePathProblem(dir);
            String other = byPath.putIfAbsent(dir, name);
            if (problem != null) {
                nodes.problem(f.value(), at, problem);
            } else if (other != null) {
                nodes.problem(f.value(), at, ManifestNodes.quoted(dir) + " is already the path of volume " + other);
            }
            volumes.put(name, dir);
        });
        return volumes;
    }

    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        List<Node> items = value("ports") == null ? List.of() : nodes.list(value("ports"), path + ".ports", "a list of port numbers");
        for (int i = 0; items != null && i < items.size(); i++) {
            String at = path + ".ports[" + i + "]";
            Integer port = nodes.number(items.get(i), at, 1, 65535);
            if (port != null && ports.contains(port)) {
                nodes.problem(items.get(i), at, port + " is already in ports[" + ports.indexOf(port) + "]");
            } else if (port != null) {
                ports.add(port);
            }
        }
        return ports;
    }

    HealthCheck health() {
        if (value("health") == null) {
            return null;
        }
        String at = path + ".health";
        Map<String, Field> h = nodes.mapping(value("health"), at, "a mapping {http: PATH, port: P} or {command: [...]}",
                ManifestReader.HEALTH);
        if (h == null) {
            return null;
        }
        boolean http = ManifestReader.given(h, "http");
        boolean command = ManifestReader.given(h, "command");
        if (http == command) {
            nodes.problem(value("health"), at, "give exactly one of 'http' (with 'port') or 'command'");
        }
        String get = http ? nodes.text(h.get("http").value(), at + ".http") : null;
        if (get != null && !get.startsWith("/")) {
            nodes.problem(h.get("http").value(), at + ".http", "a path starting with '/', got " + ManifestNodes.quoted(get));
        }
        Integer port = ManifestReader.given(h, "port") ? nodes.number(h.get("port").value(), at + ".port", 1, 65535) : null;
        if (http && !ManifestReader.given(h, "port")) {
            nodes.problem(h.get("http").keyNode(), at + ".port", "an HTTP health check needs the container's port (1-65535)");
        }
        List<String> words = null;
        if (command) {
            List<Node> items = nodes.list(h.get("command").value(), at + ".command", "a list of words");
            words = items == null ? null : nodes.texts(items, at + ".command");
            if (items != null && items.isEmpty()) {
                nodes.problem(h.get("command").value(), at + ".command", "must hold at least the program to run");
            }
        }
        Integer timeout = ManifestReader.given(h, "timeoutSeconds")
                ? nodes.number(h.get("timeoutSeconds").value(), at + ".timeoutSeconds", 1, 3600) : null;
        return new HealthCheck(get, port, words, timeout);
    }

    /**
     * The component's {@code replace:}: {@link ComponentSpec#START_FIRST} (a change cuts over: the new container starts
     * beside the old and takes the edge's route once healthy, docs/cutover.md) or {@link ComponentSpec#STOP_FIRST} (the
     * default). Start-first runs two copies at once, so it is refused on a process (it listens on the node's own port),
     * on a component with a volume (both copies would write it: mesh volumes are writable) and on one without a health
     * check (the cutover waits for it before the edge switches). Null for stop-first.
     */
    String replace(boolean process, Map<String, String> volumes, HealthCheck health) {
        if (value("replace") == null) {
            return null;
        }
        String at = path + ".replace";
        String text = nodes.text(value("replace"), at);
        if (text == null || ComponentSpec.STOP_FIRST.equals(text)) {
            return null;
        }
        if (!ComponentSpec.START_FIRST.equals(text)) {
            nodes.problem(value("replace"), at, "must be start-first (cut over: the new container starts beside the old)"
                    + " or stop-first (the default), got " + ManifestNodes.quoted(text));
            return null;
        }
        String why = process ? "a process listens on the node's own port, so two copies cannot run side by side;"
                + " only a container (image) cuts over"
                : !volumes.isEmpty() ? "both copies would write volume " + volumes.keySet().iterator().next()
                + " at once (a mesh volume is writable); a component with a volume is replaced stop-first"
                : health == null ? "the cutover waits for the new copy's health check before the edge switches to it;"
                + " give the component a health check" : null;
        if (why != null) {
            nodes.problem(value("replace"), at, "start-first refused: " + why);
            return null;
        }
        return text;
    }

    List<String> after() {
        return value("after") == null ? List.of() : nodes.texts(value("after"), path + ".after", "a list of component names");
    }

    Integer stopTimeout() {
        if (value("stop-timeout") == null) {
            return null;
        }
        String text = nodes.text(value("stop-timeout"), path + ".stop-timeout");
        String problem = text == null ? null : ManifestCheck.durationProblem(text);
        if (problem != null) {
            nodes.problem(value("stop-timeout"), path + ".stop-timeout", problem);
        }
        return text == null || problem != null ? null : ManifestCheck.seconds(text);
    }

    /**
     * The checks across a module's components, given each component's fields: {@code after} names
     * other components of the module without a cycle, and no port is published by two of them.
     */
    static void crossChecks(Manifest m, Map<String, Map<String, Field>> fields, ManifestNodes nodes) {
        Map<Integer, String> portOwners = new HashMap<>();
        boolean afterOk = true;
        for (Map.Entry<String, Manifest.Component> e : m.components().entrySet()) {
            String name = e.getKey();
            Map<String, Field> c = fields.get(name);
            for (String dep : e.getValue().after()) {
                if (dep.equals(name)) {
                    nodes.problem(c.get("after").value(), "components." + name + ".after", "names itself");
                    afterOk = false;
                } else if (!m.components().containsKey(dep)) {
                    nodes.problem(c.get("after").value(), "components." + name + ".after", ManifestNodes.quoted(dep)
                            + " is not a component of this module (components: " + String.join(", ", m.components().keySet()) + ")");
                    afterOk = false;
                }
            }
            for (int port : e.getValue().ports()) {
                String owner = portOwners.putIfAbsent(port, name);
                if (owner != null) {
                    nodes.problem(c.get("ports").value(), "components." + name + ".ports",
                            "port " + port + " is already published by " + owner);
                }
            }
        }
        if (afterOk) {
            cycle(m).ifPresent(cycle -> nodes.problem(fields.get(cycle.get(0)).get("after").value(),
                    "components." + cycle.get(0) + ".after",
                    "components wait on each other in a cycle: " + String.join(" -> ", cycle)));
        }
    }

    /**
     * The first cycle of {@code after}, starting from the first component in file order that is in
     * one ({@code a.web -> a.db -> a.web}). StartOrder finds cycles in a declaration too; this one
     * walks in file order so the problem points at the line the operator reads first.
     */
    static Optional<List<String>> cycle(Manifest m) {
        Set<String> done = new HashSet<>();
        for (String start : m.components().keySet()) {
            List<String> path = new ArrayList<>();
            Optional<List<String>> found = walk(m, start, path, done);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> walk(Manifest m, String name, List<String> path, Set<String> done) {
        int seen = path.indexOf(name);
        if (seen >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
            cycle.add(name);
            return Optional.of(cycle);
        }
        if (done.contains(name) || !m.components().containsKey(name)) {
            return Optional.empty();
        }
        path.add(name);
        for (String dep : m.components().get(name).after()) {
            Optional<List<String>> found = walk(m, dep, path, done);
            if (found.isPresent()) {
                return found;
            }
        }
        path.remove(path.size() - 1);
        done.add(name);
        return Optional.empty();
    }
}
