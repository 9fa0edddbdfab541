package mesh.host;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * FailureLog is what the agent is failing at now (the engine itself, or one component), and the only
 * place its failures are logged: one line when a failure starts, one when it ends, with how many passes
 * it lasted, for how long and its last reason. A failure that repeats on every pass is not logged again,
 * even when its words change (an engine that hangs up reads "Broken pipe" on one pass and "Connection
 * reset" on the next), so an engine that is down for an hour is two lines, not 720; the status always
 * carries the reason of the last pass.
 */
final class FailureLog {

    /** One failure that is still going on: its reason, since when, and in how many passes it was seen. */
    record Open(String reason, Instant since, int passes) {
    }

    private final Map<String, Open> open = new TreeMap<>();
    private final Consumer<String> warn;
    private final Consumer<String> info;

    FailureLog(Consumer<String> warn, Consumer<String> info) {
        this.warn = warn;
        this.info = info;
    }

    /** A pass saw {@code key} failing (or not: {@code reason} null) at {@code at}. */
    synchronized void note(String key, String reason, Instant at) {
        Open was = open.get(key);
        if (reason == null) {
            if (was != null) {
                open.remove(key);
                Duration lasted = Duration.between(was.since(), at);
                info.accept("recovered " + what(key) + " after " + was.passes() + (was.passes() == 1 ? " failed pass" : " failed passes")
                        + " over " + Math.max(0, lasted.toSeconds()) + " s (last: " + was.reason() + ")");
            }
            return;
        }
        if (was == null) {
            warn.accept("failing " + what(key) + ": " + reason);
        }
        open.put(key, new Open(reason, was == null ? at : was.since(), was == null ? 1 : was.passes() + 1));
    }

    /** A pass that judged every component saw these failing (by name) and no others. */
    synchronized void noteComponents(Map<String, String> failing, Instant at) {
        failing.forEach((component, reason) -> note(component, reason, at));
        for (String key : Map.copyOf(open).keySet()) {
            if (!key.equals(mesh.wire.HostStatus.ENGINE) && !failing.containsKey(key)) {
                note(key, null, at);
            }
        }
    }

    /** The reasons of what fails now, by key. */
    synchronized Map<String, String> reasons() {
        Map<String, String> reasons = new TreeMap<>();
        open.forEach((k, o) -> reasons.put(k, o.reason()));
        return reasons;
    }

    /** How many passes in a row saw {@code key} failing (0 when it does not fail). */
    synchronized int passes(String key) {
        Open o = open.get(key);
        return o == null ? 0 : o.passes();
    }

    private static String what(String key) {
        return mesh.wire.HostStatus.ENGINE.equals(key) ? "the engine" : key;
    }
}
