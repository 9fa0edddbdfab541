package mesh.host;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import mesh.host.process.Backoff;
import mesh.plan.HostPlan;

/**
 * ContainerRestarts, after the observe step, is the agent's restart policy for containers: the engine has none (every
 * container is made with restart policy {@code no}, so an engine that starts again starts nothing by itself: docs/backup.md,
 * "A moved copy never starts again"), and a container that ended is started again by the pass's plan (a {@code start}).
 * This step counts each such start as a restart of that container (what Docker's {@code RestartCount} counted under
 * {@code unless-stopped}; the status and the metrics read it, {@link #restarts}), and puts off the next start of one
 * that keeps ending ({@link #BACKOFF}: 1 s after the first quick end, doubling, at most 60 s; a run of 60 s starts the
 * count again), asking for a pass when it is due. A container the agent stopped itself (a fence: {@link ModuleStops})
 * is started again at once and uncounted. Counted in the agent's memory: an agent that starts again counts from zero.
 */
final class ContainerRestarts implements PassStep {

    static final Backoff BACKOFF = Backoff.DEFAULT;

    /**
     * One container's restarts by the agent, its quick ends in a row, when the agent last started it, and whether the
     * agent itself stopped it since (a fence, a take: its next start is no restart and waits for nothing).
     */
    record Count(int restarts, int quick, Instant startedAt, boolean stoppedOnPurpose) {
    }

    private final Map<String, Count> counts = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Consumer<Duration> wakeAfter;

    ContainerRestarts(Clock clock, Consumer<Duration> wakeAfter) {
        this.clock = clock;
        this.wakeAfter = wakeAfter;
    }

    @Override
    public void run(Context pass) {
        if (pass.view != null) {
            keepOnly(pass.view.all().stream().map(mesh.model.ObservedContainer::id).collect(java.util.stream.Collectors.toSet()));
        }
        pass.plan = due(pass.plan, clock.instant());
    }

    /** {@code plan} without the container starts whose backoff is not over; those kept are counted as restarts. */
    HostPlan due(HostPlan plan, Instant now) {
        if (plan.start().isEmpty()) {
            return plan;
        }
        List<HostPlan.Start> starts = new ArrayList<>();
        Duration soonest = null;
        for (HostPlan.Start s : plan.start()) {
            if (s.current().process()) {
                starts.add(s);   // a process has its supervisor's own backoff
                continue;
            }
            Count c = counts.get(s.current().id());
            if (c != null && c.stoppedOnPurpose()) {
                counts.put(s.current().id(), new Count(c.restarts(), 0, now, false));
                starts.add(s);
                continue;
            }
            Instant dueAt = c == null ? now : c.startedAt().plus(BACKOFF.delay(c.quick()));
            if (now.isBefore(dueAt)) {
                Duration wait = Duration.between(now, dueAt);
                soonest = soonest == null || wait.compareTo(soonest) < 0 ? wait : soonest;
                continue;
            }
            int quick = c == null ? 1 : BACKOFF.failuresAfter(c.quick(), Duration.between(c.startedAt(), now));
            counts.put(s.current().id(), new Count(c == null ? 1 : c.restarts() + 1, quick, now, false));
            starts.add(s);
        }
        if (soonest != null) {
            wakeAfter.accept(soonest.plusMillis(50));
        }
        return starts.size() == plan.start().size() ? plan
                : new HostPlan(plan.create(), plan.replace(), starts, plan.remove(), plan.keep());
    }

    /** The agent stopped this container on purpose ({@link ModuleStops}): its next start is not a restart. */
    void stoppedOnPurpose(String id) {
        counts.compute(id, (k, c) -> new Count(c == null ? 0 : c.restarts(), 0, c == null ? Instant.EPOCH : c.startedAt(), true));
    }

    /** How often the agent started this container again since it began counting (0 when never). */
    int restarts(String id) {
        Count c = counts.get(id);
        return c == null ? 0 : c.restarts();
    }

    /** Forgets the containers that are gone (a replace makes a new one, which counts from zero). */
    void keepOnly(java.util.Set<String> ids) {
        counts.keySet().retainAll(ids);
    }
}
