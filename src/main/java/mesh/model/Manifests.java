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
                c.health(), c.after(), c.stopTimeoutSeconds(), c.bundle() == null ? m.module() : null, refs(c.secrets()));
    }

    /** The manifest's secrets as references by name; the planner fills in each one's setting. */
    private static java.util.Map<String, SecretRef> refs(java.util.Map<String, String> secrets) {
        java.util.Map<String, SecretRef> refs = new java.util.TreeMap<>();
        secrets.forEach((variable, secret) -> refs.put(variable, SecretRef.named(secret)));
        return refs;
    }

    /** Source is one parsed manifest and the file it came from, for {@link #clashes}. */
    public record Source(String file, Manifest manifest) {
    }

    /**
     * Clashes lists what two manifests of one catalogue cannot both hold: one module defined twice,
     * or two modules with a component of one name (a component name is its container's name, so
     * both could never run on one node). Each problem names both files and both modules.
     */
    public static List<String> clashes(List<Source> sources) {
        List<String> problems = new ArrayList<>();
        Map<String, Source> modules = new LinkedHashMap<>();
        Map<String, Source> components = new LinkedHashMap<>();
        for (Source s : sources) {
            Source other = modules.putIfAbsent(s.manifest().module(), s);
            if (other != null) {
                problems.add(s.file() + ": module " + s.manifest().module() + " is also defined in " + other.file());
                continue;
            }
            for (String c : s.manifest().components().keySet()) {
                Source owner = components.putIfAbsent(c, s);
                if (owner != null) {
                    problems.add(s.file() + ": component " + c + " of module " + s.manifest().module()
                            + " is also a component of module " + owner.manifest().module() + " in " + owner.file()
                            + "; component names are container names and must differ across modules");
                }
            }
        }
        return problems;
    }
}
