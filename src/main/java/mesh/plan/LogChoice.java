package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.model.Conflict;
import mesh.model.Manifest;
import mesh.model.NotFound;
import mesh.model.Placement;

/**
 * LogChoice decides whose output {@code mesh logs MODULE[/COMPONENT]} shows: the node the module is taken
 * on (names and logs follow take, not assign) and which of its components. Every refusal names what it
 * refuses: an unknown module, an unknown component (with the module's components), a module that runs
 * nowhere.
 */
public final class LogChoice {

    /** Target is where to read: the node and the components, in the manifest's order. */
    public record Target(String node, List<String> components) {
        public Target {
            components = List.copyOf(components);
        }

        /** Whether each line needs its component in front: more than one is shown. */
        public boolean several() {
            return components.size() > 1;
        }
    }

    private LogChoice() {
    }

    /**
     * The target of {@code module} (and {@code component}, or null for all): {@code component} may be the
     * component's full name ({@code gitea.server}) or its part after the module's ({@code server}).
     */
    public static Target choose(String module, String component, Optional<Manifest> manifest,
                                Optional<Placement> placement) {
        Manifest m = manifest.orElseThrow(() -> new NotFound("unknown module " + module + "; 'mesh catalogue list' shows the modules"));
        List<String> chosen = new ArrayList<>();
        if (component == null || component.isBlank()) {
            chosen.addAll(m.components().keySet());
        } else if (m.components().containsKey(component)) {
            chosen.add(component);
        } else if (m.components().containsKey(module + "." + component)) {
            chosen.add(module + "." + component);
        } else {
            throw new NotFound("module " + module + " has no component " + component + " (it has "
                    + String.join(", ", m.components().keySet()) + ")");
        }
        String node = placement.map(Placement::taken).orElse(null);
        if (node == null) {
            String assigned = placement.map(Placement::assigned).orElse(null);
            throw new Conflict("module " + module + " runs nowhere: it is taken on no node"
                    + (assigned == null ? " (assign it with 'mesh assign NODE " + module + "', then push)"
                    : " (it is assigned to " + assigned + "; 'mesh push' or 'mesh take " + assigned + " " + module + "')"));
        }
        return new Target(node, chosen);
    }

    /** The line as shown to a person: {@code COMPONENT | line} when several components are shown, else the line. */
    public static String shown(String component, String line, boolean several) {
        return several ? component + " | " + line : line;
    }
}
