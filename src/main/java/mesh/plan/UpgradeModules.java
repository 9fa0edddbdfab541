package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import mesh.model.Manifest;

/**
 * UpgradeModules is what {@code mesh upgrade} adds to the catalogue and what it checks after each move (docs/upgrade.md):
 * the one-off module whose process runs the new build's {@code mesh host upgrade-self} on one node, the controller's
 * manifest with the new build's bundle, and which components a move disturbed (a container replaced, a process
 * restarted: an upgrade moves the agent and nothing else). Pure.
 */
public final class UpgradeModules {

    /** The one-off modules' names: this, then the node's. */
    public static final String PREFIX = "mesh-upgrade-";

    private UpgradeModules() {
    }

    /** The one-off module of {@code node}. */
    public static String module(String node) {
        return PREFIX + node;
    }

    /** Its one component. */
    public static String component(String node) {
        return module(node) + ".run";
    }

    /** The one-off module's manifest: a process of {@code bundle} (pinned, NAME@sha256:HEX) running {@code mesh host upgrade-self}. */
    public static String oneOff(String node, String bundle) {
        return "# mesh upgrade: moves node " + node + "'s agent to the build of this bundle; removed once it did\n"
                + "module: " + module(node) + "\n"
                + "components:\n"
                + "  " + component(node) + ":\n"
                + "    bundle: " + quoted(bundle) + "\n"
                + "    args: [host, upgrade-self]\n"
                + "    stop-timeout: 5s\n";
    }

    /** The fields of a component {@link #controllerWith} writes back; a manifest with any other is refused. */
    private static final List<String> WRITTEN = List.of("bundle", "args", "env", "ports", "stop-timeout");

    /**
     * The controller's manifest {@code m} (module mesh-controller, as mesh install added it) with its bundle replaced
     * by {@code bundle}, as YAML for {@code catalogue add}; everything else as it was. A component holding what this
     * does not write back (an image, volumes, binds, health, after, secrets, backup) is refused, naming it, rather
     * than dropped.
     */
    public static String controllerWith(Manifest m, String bundle) {
        StringBuilder y = new StringBuilder("# the mesh's controller, its bundle moved by mesh upgrade\nmodule: ")
                .append(m.module()).append("\ncomponents:\n");
        for (Map.Entry<String, Manifest.Component> e : m.components().entrySet()) {
            Manifest.Component c = e.getValue();
            List<String> other = new ArrayList<>();
            if (c.image() != null) {
                other.add("image");
            }
            if (c.binds() != null && !c.binds().isEmpty()) {
                other.add("binds");
            }
            if (c.volumes() != null && !c.volumes().isEmpty()) {
                other.add("volumes");
            }
            if (c.health() != null) {
                other.add("health");
            }
            if (c.after() != null && !c.after().isEmpty()) {
                other.add("after");
            }
            if (c.secrets() != null && !c.secrets().isEmpty()) {
                other.add("secrets");
            }
            if (c.backup() != null) {
                other.add("backup");
            }
            if (c.bundle() == null || !other.isEmpty()) {
                throw new IllegalArgumentException("component " + e.getKey() + " of " + m.module() + " holds "
                        + (c.bundle() == null ? "no bundle" : String.join(", ", other)) + ", which mesh upgrade does not write"
                        + " back (it writes " + String.join(", ", WRITTEN) + "): move it by hand with 'mesh catalogue add'");
            }
            y.append("  ").append(e.getKey()).append(":\n    bundle: ").append(quoted(bundle)).append('\n');
            if (c.args() != null && !c.args().isEmpty()) {
                y.append("    args: [").append(String.join(", ", c.args().stream().map(UpgradeModules::quoted).toList())).append("]\n");
            }
            if (c.env() != null && !c.env().isEmpty()) {
                y.append("    env:\n");
                c.env().forEach((k, v) -> y.append("      ").append(quoted(k)).append(": ").append(quoted(v)).append('\n'));
            }
            if (c.ports() != null && !c.ports().isEmpty()) {
                y.append("    ports: ").append(c.ports()).append('\n');
            }
            if (c.stopTimeoutSeconds() != null) {
                y.append("    stop-timeout: ").append(c.stopTimeoutSeconds()).append("s\n");
            }
        }
        if (m.routes() != null && !m.routes().isEmpty() || m.backup() != null) {
            throw new IllegalArgumentException(m.module() + " has routes or a backup schedule, which mesh upgrade does not"
                    + " write back: move it by hand with 'mesh catalogue add'");
        }
        return y.toString();
    }

    /** Running is one component as an agent's status shows it: its container's id, or its process's pid (0: none). */
    public record Running(String component, String module, String container, long pid) {
    }

    /**
     * What a move disturbed: each component of {@code before} (but those of the modules {@code moved}: the one-off,
     * or the controller when it is the one moving) that is gone, whose container was replaced, or whose process was
     * restarted in {@code after}; empty when nothing was.
     */
    public static List<String> disturbed(List<Running> before, List<Running> after, List<String> moved) {
        List<String> found = new ArrayList<>();
        for (Running b : before) {
            if (moved.contains(b.module()) || b.module().startsWith(PREFIX)) {
                continue;
            }
            Running a = after.stream().filter(x -> x.component().equals(b.component())).findFirst().orElse(null);
            if (a == null) {
                found.add(b.component() + " is gone");
            } else if (b.container() != null && !Objects.equals(b.container(), a.container())) {
                found.add("container " + b.component() + " was replaced (" + shortId(b.container()) + " → " + shortId(a.container()) + ")");
            } else if (b.pid() > 0 && b.pid() != a.pid()) {
                found.add("process " + b.component() + " was restarted (pid " + b.pid() + " → " + a.pid() + ")");
            }
        }
        return found;
    }

    private static String shortId(String id) {
        return id == null ? "none" : id.substring(0, Math.min(12, id.length()));
    }

    /** A YAML double-quoted scalar (JSON's escapes, which YAML reads the same). */
    static String quoted(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\t' -> q.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        q.append(String.format("\\u%04x", (int) ch));
                    } else {
                        q.append(ch);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
