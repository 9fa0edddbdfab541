package mesh.model;

import mesh.bundle.BundleRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * DeclarationCheck lists what is wrong with a declaration before anything is recorded or applied,
 * so a refused declaration changes nothing (docs/design.md, invariant 10). Each problem names the component and field.
 */
public final class DeclarationCheck {

    /** Docker's rule for container, network and volume names. */
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}");
    static final Pattern HOSTNAME = Pattern.compile(
            "(\\*\\.)?[a-zA-Z0-9]([a-zA-Z0-9-]{0,62})(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,62}))*");
    static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:]*:[0-9a-fA-F:.]*");
    static final int MAX_STOP_TIMEOUT_SECONDS = 3600;

    private DeclarationCheck() {
    }

    public static List<String> problems(Declaration d) {
        return problems(d, true);
    }

    /**
     * The problems of a catalogue's trial declaration: as {@link #problems(Declaration)}, except that a
     * bundle may still be {@code NAME[:TAG]} (the push resolves it) and there is no artifact store yet.
     */
    public static List<String> catalogueProblems(Declaration d) {
        return problems(d, false);
    }

    /** A named push must name its audit id and token, and a take's push its epoch. */
    private static void pushProblems(PushOrigin push, List<String> problems) {
        if (push == null) {
            return;
        }
        if (push.id() < 1) {
            problems.add("push.id: must be 1 or more, got " + push.id());
        }
        if (push.by() == null || push.by().isBlank()) {
            problems.add("push.by: is required (the operator token's name, or controller)");
        }
        if ((push.take() == null) != (push.epoch() == null)) {
            problems.add("push: take and epoch go together, got take " + quoted(push.take()) + " and epoch " + push.epoch());
        }
    }

    private static List<String> problems(Declaration d, boolean pinned) {
        List<String> problems = new ArrayList<>();
        if (pinned && d.registry() != null && !d.registry().matches("https?://[^\\s/]+(/[^\\s]*)?")) {
            problems.add("registry: must be an http:// or https:// URL, got " + quoted(d.registry()));
        }
        if (pinned && d.registry() == null) {
            d.components().stream().filter(c -> c != null && c.process()).findFirst().ifPresent(c -> problems.add(
                    "registry: is required when a component is a process (component " + c.name() + " runs bundle "
                            + c.bundle() + ")"));
        }
        if (d.node() == null || !NAME.matcher(d.node()).matches()) {
            problems.add("node: must be a name of letters, digits, '.', '_' or '-', got " + quoted(d.node()));
        }
        if (d.address() != null && !isAddress(d.address())) {
            problems.add("address: not an IP address: " + quoted(d.address()));
        }
        if (d.generation() < 1) {
            problems.add("generation: must be 1 or more, got " + d.generation());
        }
        pushProblems(d.push(), problems);
        Set<String> names = new HashSet<>();
        Map<Integer, String> portOwners = new HashMap<>();
        for (int i = 0; i < d.components().size(); i++) {
            ComponentSpec c = d.components().get(i);
            if (c == null) {
                problems.add("components[" + i + "]: is null");
                continue;
            }
            String where = c.name() == null ? "components[" + i + "]" : "component " + c.name();
            if (c.name() != null && !names.add(c.name())) {
                problems.add(where + ": declared twice");
            }
            componentProblems(c, where, problems, pinned);
            for (Integer port : c.ports()) {
                String owner = port == null ? null : portOwners.putIfAbsent(port, c.name());
                if (owner != null && !owner.equals(c.name())) {
                    problems.add(where + ": port " + port + " is already published by " + owner);
                }
            }
        }
        problems.addAll(StartOrder.problems(d.components()));
        EdgeCheck.problems(d, problems);
        return problems;
    }

    private static void componentProblems(ComponentSpec c, String where, List<String> problems, boolean pinned) {
        check(problems, c.name() != null && NAME.matcher(c.name()).matches(), where,
                "name: must be letters, digits, '.', '_' or '-', got " + quoted(c.name()));
        check(problems, c.module() != null && NAME.matcher(c.module()).matches(), where,
                "module: must be letters, digits, '.', '_' or '-', got " + quoted(c.module()));
        if (c.image() != null && c.bundle() != null) {
            problems.add(where + ": give exactly one of image (a container) or bundle (a process), not both");
        } else if (c.bundle() != null) {
            bundleProblems(c.bundle(), where, problems, pinned);
        } else {
            check(problems, c.image() != null && !c.image().isBlank() && !c.image().contains(" "), where,
                    "image: is required (an image reference), got " + quoted(c.image()));
        }
        check(problems, c.network() == null || NAME.matcher(c.network()).matches(), where,
                "network: not a valid network name: " + quoted(c.network()));
        c.env().forEach((k, v) -> check(problems, !k.isEmpty() && !k.contains("=") && v != null, where,
                "env: '" + k + "' must be a non-empty name without '=' and have a value"));
        c.secrets().forEach((k, ref) -> {
            check(problems, !k.isEmpty() && !k.contains("=") && !c.env().containsKey(k), where,
                    "secrets: '" + k + "' must be a non-empty name without '=' and not also in env");
            // a manifest's reference names the secret alone; the planner fills in its version and hash
            check(problems, ref != null && SecretNames.problem(ref.secret()) == null && (ref.version() == null
                            || (ref.version() >= 1 && ref.hmac() != null && ref.hmac().matches("[0-9a-f]{64}"))), where,
                    "secrets: '" + k + "' must name a secret, and with its version (from 1) its hmac (64 hex digits)");
            check(problems, c.bundle() == null, where, "secrets: '" + k + "': a process cannot use a secret yet"
                    + " (secrets are given to containers only)");
        });
        c.volumes().forEach((k, v) -> {
            check(problems, NAME.matcher(k).matches(), where, "volumes: not a valid volume name: " + quoted(k));
            check(problems, v != null && v.startsWith("/"), where,
                    "volumes: path for '" + k + "' must be absolute, got " + quoted(v));
        });
        for (Integer port : c.ports()) {
            check(problems, port != null && port >= 1 && port <= 65535, where,
                    "ports: " + port + " is not a port (1-65535)");
        }
        c.hosts().forEach((k, v) -> {
            check(problems, HOSTNAME.matcher(k).matches(), where, "hosts: not a host name: " + quoted(k));
            check(problems, v != null && isAddress(v), where,
                    "hosts: '" + k + "' must map to an IP address, got " + quoted(v));
        });
        check(problems, c.stopTimeoutSeconds() == null
                        || (c.stopTimeoutSeconds() >= 0 && c.stopTimeoutSeconds() <= MAX_STOP_TIMEOUT_SECONDS), where,
                "stopTimeoutSeconds: must be 0 to " + MAX_STOP_TIMEOUT_SECONDS + ", got " + c.stopTimeoutSeconds());
        if (c.health() != null) {
            healthProblems(c.health(), where, problems);
        }
        check(problems, c.replace() == null || c.startFirst() && c.bundle() == null && c.volumes().isEmpty()
                && c.health() != null, where, "replace: must be start-first, on a container without volumes and with a"
                + " health check, got " + quoted(c.replace()));
    }

    private static void bundleProblems(String bundle, String where, List<String> problems, boolean pinned) {
        try {
            BundleRef ref = BundleRef.parse(bundle);
            check(problems, !pinned || ref.pinned(), where,
                    "bundle: must be pinned as NAME@sha256:<64 hex> in a declaration, got " + quoted(bundle));
        } catch (IllegalArgumentException e) {
            problems.add(where + ": bundle: " + e.getMessage());
        }
    }

    private static void healthProblems(HealthCheck h, String where, List<String> problems) {
        boolean http = h.http() != null;
        boolean command = h.command() != null;
        check(problems, http != command, where, "health: give exactly one of 'http' (with 'port') or 'command'");
        if (http) {
            check(problems, h.http().startsWith("/"), where, "health.http: must be a path starting with '/'");
            check(problems, h.port() != null && h.port() >= 1 && h.port() <= 65535, where,
                    "health.port: an HTTP health check needs a port (1-65535)");
        }
        if (command) {
            check(problems, !h.command().isEmpty(), where,
                    "health.command: must be a non-empty list of words");
        }
        check(problems, h.timeoutSeconds() == null || (h.timeoutSeconds() >= 1 && h.timeoutSeconds() <= 3600),
                where, "health.timeoutSeconds: must be 1 to 3600");
    }

    /** Whether the text is a dotted-quad IPv4 address: what a node's mesh address must be. */
    public static boolean isIpv4(String text) {
        return text != null && IPV4.matcher(text).matches();
    }

    static boolean isAddress(String text) {
        return IPV4.matcher(text).matches() || IPV6.matcher(text).matches();
    }

    private static void check(List<String> problems, boolean ok, String where, String problem) {
        if (!ok) {
            problems.add(where + ": " + problem);
        }
    }

    private static String quoted(Object value) {
        return value == null ? "nothing" : "'" + value + "'";
    }
}
