package mesh.model;

import mesh.bundle.BundleRef;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.ManifestNodes.Field;
import org.yaml.snakeyaml.nodes.Node;

/**
 * ManifestReader walks one manifest's YAML tree into a {@link Manifest}, checking every field where
 * it stands in the file, so that all of a file's problems come out of one run, each with its line,
 * column and field path (docs/manifest.md lists the rules).
 */
final class ManifestReader {

    static final List<String> TOP = List.of("module", "components", "routes", "backup");
    static final List<String> COMPONENT = List.of("image", "bundle", "args", "env", "binds", "volumes", "ports",
            "health", "after", "stop-timeout", "backup", "replace");
    static final List<String> HEALTH = List.of("http", "port", "command", "timeoutSeconds");
    static final List<String> ROUTE = List.of("component", "port", "domain");
    /** A component name is also a container name, which mesh keeps within Docker's 128 characters. */
    static final int MAX_COMPONENT_NAME = 128;
    /** The longest DNS name. */
    static final int MAX_HOST_NAME = 253;

    private final ManifestNodes nodes;

    ManifestReader(String file) {
        this.nodes = new ManifestNodes(file);
    }

    List<String> problems() {
        return nodes.problems();
    }

    /** The manifest the tree holds, or null if it is not even a mapping; {@link #problems()} says what is wrong. */
    Manifest read(Node root) {
        Map<String, Field> top = nodes.mapping(root, "", "a manifest is a mapping with 'module' and 'components'", TOP);
        if (top == null) {
            return null;
        }
        String module = module(root, top.get("module"));
        Map<String, Field> given = componentsGiven(root, top.get("components"));
        Map<String, Manifest.Component> components = new LinkedHashMap<>();
        Map<String, Map<String, Field>> componentFields = new LinkedHashMap<>();
        given.forEach((name, f) -> {
            String path = "components." + name;
            String problem = ManifestCheck.dottedNameProblem(name, MAX_COMPONENT_NAME);
            if (problem != null) {
                nodes.problem(f.keyNode(), path, problem);
            }
            if (ManifestNodes.isNull(f.value())) {
                nodes.problem(f.keyNode(), path, "is empty; a component needs at least its image");
                return;
            }
            Map<String, Field> fields = nodes.mapping(f.value(), path, "a component is a mapping with at least 'image'", COMPONENT);
            if (fields != null) {
                components.put(name, component(f, fields, path));
                componentFields.put(name, fields);
            }
        });
        Manifest manifest = new Manifest(module, components, routes(module, top.get("routes"), given, components),
                ManifestBackup.module(nodes, top.get("backup")));
        ManifestComponents.crossChecks(manifest, componentFields, nodes);
        ManifestBackup.crossChecks(manifest, top.get("backup"), nodes);
        return manifest;
    }

    /** The components' fields by name; none (with a problem) when there are none or they are not a mapping. */
    private Map<String, Field> componentsGiven(Node root, Field f) {
        Map<String, Field> given = f == null || ManifestNodes.isNull(f.value()) ? Map.of()
                : nodes.mapping(f.value(), "components", "a mapping of component name to component", null);
        if (given != null && given.isEmpty()) {
            nodes.problem(f == null ? root : f.keyNode(), "components", "a module needs at least one component");
        }
        return given == null ? Map.of() : given;
    }

    private String module(Node root, Field f) {
        if (f == null || ManifestNodes.isNull(f.value())) {
            nodes.problem(f == null ? root : f.keyNode(), "module", "is required: the module's name (" + ManifestCheck.LABEL_RULE + ")");
            return null;
        }
        String name = nodes.text(f.value(), "module");
        String problem = name == null ? null : ManifestCheck.singleLabelProblem(name);
        if (problem != null) {
            nodes.problem(f.value(), "module", problem);
        }
        return name;
    }

    private Manifest.Component component(Field f, Map<String, Field> c, String path) {
        String image = null;
        String bundle = null;
        boolean hasImage = given(c, "image");
        boolean hasBundle = given(c, "bundle");
        if (hasImage && hasBundle) {
            nodes.problem(c.get("bundle").keyNode(), path + ".bundle",
                    "give exactly one of image (a container) or bundle (a process), not both");
        } else if (!hasImage && !hasBundle) {
            nodes.problem(f.keyNode(), path + ".image",
                    "is required (an image reference like nginx:1.27), or bundle: NAME[:TAG] for a process");
        } else if (hasBundle) {
            bundle = nodes.text(c.get("bundle").value(), path + ".bundle");
            try {
                BundleRef.parse(bundle);
            } catch (IllegalArgumentException e) {
                nodes.problem(c.get("bundle").value(), path + ".bundle", e.getMessage());
            }
        } else {
            image = nodes.text(c.get("image").value(), path + ".image");
            String problem = image == null ? null : ManifestCheck.imageProblem(image);
            if (problem != null) {
                nodes.problem(c.get("image").value(), path + ".image", problem);
            }
        }
        ManifestComponents parts = new ManifestComponents(nodes, path, c);
        Map<String, String> env = parts.env();
        Map<String, String> volumes = parts.volumes(hasBundle && !hasImage);
        HealthCheck health = parts.health();
        return new Manifest.Component(image, bundle, parts.args(), env, parts.binds(), volumes,
                parts.ports(), health, parts.after(), parts.stopTimeout(), parts.secrets(),
                ManifestBackup.command(nodes, c, path, hasBundle && !hasImage),
                parts.replace(hasBundle && !hasImage, volumes, health));
    }

    static boolean given(Map<String, Field> fields, String key) {
        return fields.containsKey(key) && !ManifestNodes.isNull(fields.get(key).value());
    }

    /**
     * The routes, each naming a component of the module and a port. The edge proxies to that port
     * on the mesh address of the module's node, so a route to a port its component does not
     * publish, or to a component that publishes none, is refused ({@link RoutePort}).
     */
    private Map<String, Manifest.Route> routes(String module, Field f, Map<String, Field> components,
                                               Map<String, Manifest.Component> parsed) {
        Map<String, Manifest.Route> routes = new HashMap<>();
        if (f == null || ManifestNodes.isNull(f.value())) {
            return routes;
        }
        Map<String, Field> given = nodes.mapping(f.value(), "routes", "a mapping of route name to {component, port}", null);
        if (given == null) {
            return routes;
        }
        given.forEach((name, r) -> {
            String path = "routes." + name;
            String problem = Manifest.Route.WILDCARD.equals(name) ? null : ManifestCheck.singleLabelProblem(name);
            if (problem != null) {
                nodes.problem(r.keyNode(), path, problem);
            }
            if (ManifestNodes.isNull(r.value())) {
                nodes.problem(r.keyNode(), path, "is empty; a route needs {component: C, port: P}");
                return;
            }
            Map<String, Field> route = nodes.mapping(r.value(), path, "a route is a mapping {component: C, port: P}", ROUTE);
            if (route == null) {
                return;
            }
            String component = null;
            if (!given(route, "component")) {
                nodes.problem(r.keyNode(), path + ".component", "is required: the component that serves the route");
            } else {
                component = nodes.text(route.get("component").value(), path + ".component");
                if (component != null && !components.containsKey(component)) {
                    nodes.problem(route.get("component").value(), path + ".component",
                            "must name a component of this module, got " + ManifestNodes.quoted(component)
                                    + " (components: " + String.join(", ", components.keySet()) + ")");
                }
            }
            Integer port = null;
            if (!given(route, "port")) {
                nodes.problem(r.keyNode(), path + ".port", "is required: the component's port (1-65535)");
            } else {
                port = nodes.number(route.get("port").value(), path + ".port", 1, 65535);
            }
            String domain = null;
            boolean domainGood = true;
            if (given(route, "domain")) {
                domain = nodes.text(route.get("domain").value(), path + ".domain");
                String bad = domain == null ? null : ManifestCheck.dottedNameProblem(domain, MAX_HOST_NAME);
                if (bad != null || domain != null && !domain.contains(".")) {
                    nodes.problem(route.get("domain").value(), path + ".domain", "must be a public domain like zurag.be"
                            + " (a node's, 'mesh node public-domain'): " + (bad != null ? bad : ManifestNodes.quoted(domain)));
                    domainGood = false;
                }
            }
            Manifest.Component served = component == null ? null : parsed.get(component);
            if (port != null && served != null) {
                String unpublished = RoutePort.problem(module, name, new Manifest.Route(component, port, domainGood ? domain : null),
                        served.ports());
                if (unpublished != null) {
                    nodes.problem(route.get("port").value(), path + ".port", unpublished);
                }
            }
            routes.put(name, new Manifest.Route(component, port, domain));
        });
        return routes;
    }
}
