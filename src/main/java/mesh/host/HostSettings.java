package mesh.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.Cidr;
import mesh.model.InvalidInput;
import mesh.plan.NetworkRange;

/**
 * HostSettings is the host agent's configuration, read from MESH_HOST_* (environment over the
 * config file), with the defaults of the CLI contract. A missing node name is an error at start,
 * not a surprise at the first push. Over HTTPS the agent takes calls on its mesh's controller's
 * client certificate alone; {@code token} (MESH_HOST_TOKEN, optional) is read only by an agent
 * serving plain HTTP, the tests' mode: there it is the bearer a caller must send, so a test that
 * calls an agent directly still sees its calls checked (docs/trust.md). {@code networks}
 * (MESH_HOST_NETWORKS) is the range new module networks take their subnets from (docs/declaration.md,
 * "Module networks").
 */
public record HostSettings(String node, String engine, String token, Path stateDir, Duration interval,
                           int parallelism, Cidr networks) {

    /** Settings with the default range for module networks ({@link NetworkRange#DEFAULT}). */
    public HostSettings(String node, String engine, String token, Path stateDir, Duration interval, int parallelism) {
        this(node, engine, token, stateDir, interval, parallelism, NetworkRange.DEFAULT);
    }

    public static final String DEFAULT_ENGINE = "unix:///var/run/docker.sock";
    public static final String DEFAULT_STATE_DIR = "/var/lib/mesh";

    /** Settings for serving: the node's name is required. */
    public static HostSettings forServe(Map<String, String> vars) {
        HostSettings s = read(vars);
        List<String> problems = new ArrayList<>(s.problems());
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        return s;
    }

    /** Settings for the local verbs (apply, history): node from the declaration if unset. */
    public static HostSettings forLocal(Map<String, String> vars) {
        HostSettings s = read(vars);
        List<String> problems = s.problems(false);
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        return s;
    }

    private static HostSettings read(Map<String, String> vars) {
        String interval = vars.getOrDefault("MESH_HOST_INTERVAL", "15s");
        return new HostSettings(
                vars.get("MESH_HOST_NODE"),
                vars.getOrDefault("MESH_HOST_ENGINE", DEFAULT_ENGINE),
                vars.get("MESH_HOST_TOKEN") == null || vars.get("MESH_HOST_TOKEN").isBlank() ? null : vars.get("MESH_HOST_TOKEN"),
                Path.of(vars.getOrDefault("MESH_HOST_STATE_DIR", DEFAULT_STATE_DIR)),
                parseSeconds(interval),
                parseParallelism(vars.getOrDefault("MESH_HOST_PARALLELISM", "8")),
                NetworkRange.parse(vars.get(NetworkRange.SETTING)));
    }

    private List<String> problems() {
        return problems(true);
    }

    /** The settings' problems; {@code nodeNeeded} false for a local verb, which takes the node from its declaration. */
    private List<String> problems(boolean nodeNeeded) {
        List<String> problems = new ArrayList<>();
        if (nodeNeeded && (node == null || node.isBlank())) {
            problems.add("MESH_HOST_NODE is not set: the agent must know which node it is");
        }
        String engineProblem = mesh.model.EngineAddress.problem(engine);
        if (engineProblem != null) {
            problems.add("MESH_HOST_ENGINE: " + engineProblem);
        }
        if (interval.isZero() || interval.isNegative()) {
            problems.add("MESH_HOST_INTERVAL must be a positive duration like 15s");
        }
        if (parallelism < 1 || parallelism > 64) {
            problems.add("MESH_HOST_PARALLELISM must be 1 to 64");
        }
        return problems;
    }

    static int parseParallelism(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInput(List.of("MESH_HOST_PARALLELISM must be a number from 1 to 64, got '" + text + "'"));
        }
    }

    /** MESH_HOST_INTERVAL ({@link mesh.model.DurationText}: {@code 15s}, {@code 1m}, {@code 500ms}; a bare number is seconds). */
    static Duration parseSeconds(String text) {
        try {
            return mesh.model.DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidInput(List.of("MESH_HOST_INTERVAL: " + e.getMessage()));
        }
    }
}
