package mesh.model;

import java.util.Map;

/** Manifests turns a manifest's component into the spec a node runs, given the addresses of its binds. */
public final class Manifests {

    private Manifests() {
    }

    /** The component as a container spec; its network is the module's own, named after the module. */
    public static ComponentSpec spec(Manifest m, String name, Map<String, String> hosts) {
        Manifest.Component c = m.components().get(name);
        return new ComponentSpec(m.module(), name, c.image(), c.args(), c.env(), c.volumes(), c.ports(), hosts,
                c.health(), c.after(), c.stopTimeoutSeconds(), m.module());
    }
}
