package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;

/**
 * StartHold is the rule that keeps a moved copy from starting again (docs/backup.md, "A moved copy never starts
 * again"). A node that was down while one of its modules was restored elsewhere still holds a declaration that runs
 * that module; the controller fences it there the moment the node's agent answers (its lost-copy watch, every 2 s).
 * So after the agent starts, and after its engine comes back, the agent starts nothing of a module with data (a
 * module whose components have volumes) that does not run now, until it has heard from the controller (a declaration
 * accepted) or until {@link #HOLD} has passed without one: then it runs its own last declaration, so a node that
 * restarts while the seat is down still runs its modules. A module of which something runs was running here when the
 * agent came (the engine starts nothing by itself: restart policy {@code no}), so it is not held; a module without
 * volumes has no data to run twice. Pure: the time is passed in.
 */
public record StartHold(Instant until, boolean released) {

    /** How long the agent waits to hear from the controller before it runs its own last declaration. */
    public static final Duration HOLD = Duration.ofSeconds(15);

    /** A hold from {@code now} for {@link #HOLD}. */
    public static StartHold from(Instant now) {
        return new StartHold(now.plus(HOLD), false);
    }

    /** The controller was heard from (a declaration accepted): nothing is held any more. */
    public StartHold release() {
        return new StartHold(until, true);
    }

    /** Whether the hold still keeps modules back at {@code now}. */
    public boolean holding(Instant now) {
        return !released && now.isBefore(until);
    }

    /** The modules held at {@code now}: each module of {@code d} with volumes of which nothing in {@code observed} runs. */
    public Set<String> held(Declaration d, List<ObservedContainer> observed, Instant now) {
        Set<String> held = new TreeSet<>();
        if (d == null || !holding(now)) {
            return held;
        }
        for (ComponentSpec c : d.components()) {
            if (!c.volumes().isEmpty()) {
                held.add(c.module());
            }
        }
        for (ObservedContainer o : observed) {
            if (o.running()) {
                held.remove(o.module());
            }
        }
        return held;
    }
}
