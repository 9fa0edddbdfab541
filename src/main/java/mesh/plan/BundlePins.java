package mesh.plan;

import java.util.Map;
import java.util.TreeMap;

/**
 * BundlePins is what the controller learned from the artifact store before planning: each bundle as the
 * catalogue writes it ({@code NAME[:TAG]}) and the digest its tag names now ({@code NAME@sha256:HEX}), or
 * why it could not be resolved. The planner stays pure: it is handed these, and a component whose bundle
 * is in neither fails the plan, naming the component and the bundle.
 *
 * @param pinned   written reference to {@code NAME@sha256:HEX}
 * @param failures written reference to why it could not be resolved
 */
public record BundlePins(Map<String, String> pinned, Map<String, String> failures) {

    public static final BundlePins NONE = new BundlePins(Map.of(), Map.of());

    public BundlePins {
        pinned = pinned == null ? Map.of() : Map.copyOf(new TreeMap<>(pinned));
        failures = failures == null ? Map.of() : Map.copyOf(new TreeMap<>(failures));
    }
}
