package mesh.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Manifests turns a manifest's component into the spec a node runs, given the addresses of its binds. */
public final class Manifests {

    private Manifests() {
    }

    /**
     * The component as a spec; a container's network is the module's own, named after the module (a process
     * has none: it runs on the node and listens on the node's mesh address).
     */
    public static ComponentSpec spec(Manifest m, String name, Map<String, String> hosts) {
        Manifest.Component c = m.components().get(name);
        return new ComponentSpec(m.module(), name, c.image(), c.bundle(), c.args(), c.env(), c.volumes(), c.ports(), hosts,
                c.health(), c.after(), c.stopTimeoutSeconds(), c.bundle() == null ? m.module() : null, refs(c.secrets()),
                c.replace());
    }

    /** The manifest's secrets as references by name; the planner fills in each one's setting. */
    private static java.util.Map<String, SecretRef> refs(java.util.Map<String, String> secrets) {
        java.util.Map<String, SecretRef> refs = new java.util.TreeMap<>();
        secrets.forEach((variable, secret) -> refs.put(variable, SecretRef.named(secret)));
        return refs;
    }

    /**
     * Source is one parsed manifest, the file it came from and, when known, the file's text, from which
     * {@link #clashes} takes the line and column it points at.
     */
    public record Source(String file, Manifest manifest, String yaml) {

        /** A source whose text is not known: its problems name the file alone. */
        public Source(String file, Manifest manifest) {
            this(file, manifest, null);
        }

        /** {@code FILE:LINE:COLUMN} of the key path in this file, or the file alone. */
        String at(boolean value, String... keys) {
            return ManifestYaml.where(file, yaml, value, keys);
        }
    }

    /**
     * Clashes lists what two manifests of one catalogue cannot both hold: one module defined twice;
     * two modules with a component of one name (a component name is its container's name, so both
     * could never run on one node); two modules with a route of one name under one given
     * {@code domain} (the name {@code R.D} is one name whichever nodes they run on, so a push with
     * both running fails). Each problem points at both files, with line and column when the text is known.
     */
    public static List<String> clashes(List<Source> sources) {
        List<String> problems = new ArrayList<>();
        Map<String, Source> modules = new LinkedHashMap<>();
        Map<String, Source> components = new LinkedHashMap<>();
        Map<String, Source> routes = new LinkedHashMap<>();
        for (Source s : sources) {
            Source other = modules.putIfAbsent(s.manifest().module(), s);
            if (other != null) {
                problems.add(s.at(true, "module") + ": module " + s.manifest().module() + " is also defined in "
                        + other.at(true, "module"));
                continue;
            }
            for (String c : s.manifest().components().keySet()) {
                Source owner = components.putIfAbsent(c, s);
                if (owner != null) {
                    problems.add(s.at(false, "components", c) + ": component " + c + " of module " + s.manifest().module()
                            + " is also a component of module " + owner.manifest().module() + " in "
                            + owner.at(false, "components", c)
                            + "; component names are container names and must differ across modules");
                }
            }
            s.manifest().routes().forEach((route, r) -> {
                if (r.domain() == null) {
                    return;
                }
                String name = route + "." + r.domain();
                Source owner = routes.putIfAbsent(name, s);
                if (owner != null) {
                    String ownerRoute = owner.manifest().routes().entrySet().stream()
                            .filter(e -> name.equals(e.getKey() + "." + e.getValue().domain())).findFirst().orElseThrow().getKey();
                    problems.add(s.at(false, "routes", route) + ": route " + name + " of module " + s.manifest().module()
                            + " is also a route of module " + owner.manifest().module() + " in " + owner.at(false, "routes", ownerRoute)
                            + "; one name is served by one module, and a push with both running fails");
                }
            });
        }
        return problems;
    }
}
