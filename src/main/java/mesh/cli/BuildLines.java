package mesh.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.wire.Build;

/**
 * BuildLines is how the CLI shows which build each part of the mesh runs ({@link Build}): a node's VERSION cell,
 * and the warning {@code node list} and {@code status} give when the controller and the agents are not all one
 * build. Pure: the verbs give it what the controller and the agents said.
 */
final class BuildLines {

    /** What an agent that answers without a build runs: one from before builds were reported. */
    static final String TOO_OLD = "a build from before versions were reported";

    private BuildLines() {
    }

    /** A node's VERSION cell: its agent's build, or {@code -} when it is not known. */
    static String cell(Build build) {
        return build == null ? "-" : build.words();
    }

    /**
     * The warning when more than one build runs: {@code this mesh runs 2 builds: the controller and n1, n2 on 0.2.0
     * (…); n3 on 0.1.0 (…)}. {@code controller} null: not known (an older controller); {@code agents} by node, each
     * its build's words, {@link #TOO_OLD}, or absent when not known. Empty when all known parts run one build.
     */
    static Optional<String> mix(String controller, Map<String, String> agents) {
        Map<String, List<String>> byBuild = new LinkedHashMap<>();
        if (controller != null) {
            byBuild.computeIfAbsent(controller, b -> new ArrayList<>()).add("the controller");
        }
        agents.forEach((node, build) -> byBuild.computeIfAbsent(build, b -> new ArrayList<>()).add(node));
        if (byBuild.size() < 2) {
            return Optional.empty();
        }
        List<String> groups = new ArrayList<>();
        byBuild.forEach((build, parts) -> groups.add(String.join(", ", parts) + " on " + build));
        return Optional.of("warning: this mesh runs " + byBuild.size() + " builds: " + String.join("; ", groups)
                + ". Parts of one mesh are meant to run one build: install the same build on every node.");
    }

    /** The controller's build in words; null from a controller older than builds (it has no such call). */
    static String controller(ControllerClient controller) {
        return controller.optional(api -> api.build().words(), null);   // what the verb is for does not depend on it
    }
}
