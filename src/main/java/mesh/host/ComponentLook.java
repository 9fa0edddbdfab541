package mesh.host;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import mesh.docker.Engine;
import mesh.host.process.ProcessStatus;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.Vitals;

/**
 * ComponentLook is the agent's look at how each declared component does, once per pass: its restart
 * count (the agent's, {@link ContainerRestarts}), last exit and start time of a container (one inspect), the supervisor's of a process,
 * and one try of its health check if it runs. It only reads (an exec of a health command changes
 * nothing the mesh owns); plan/ComponentVerdict turns what it saw into a state. The tries run side by
 * side on the agent's pool, so a slow check costs one attempt's timeout, not one per component.
 */
final class ComponentLook {

    private final Engine engine;
    private final ProcessComponents processes;
    private final ExecutorService pool;
    private final java.util.function.ToIntFunction<String> restarts;

    /** {@code restarts}: how often the agent started a container again, by id ({@link ContainerRestarts}). */
    ComponentLook(Engine engine, ProcessComponents processes, ExecutorService pool, java.util.function.ToIntFunction<String> restarts) {
        this.engine = engine;
        this.processes = processes;
        this.pool = pool;
        this.restarts = restarts;
    }

    /** What was seen of each component that exists on the node, by name. Throws if the engine fails. */
    Map<String, Vitals> look(Declaration d, List<ObservedContainer> observed, Instant now) {
        Map<String, Vitals> seen = new ConcurrentHashMap<>();
        List<ProcessStatus> supervised = processes == null ? List.of() : processes.status(now);
        CompletableFuture<?>[] tries = d.components().stream().map(c -> {
            ObservedContainer o = observed.stream().filter(x -> x.name().equals(c.name()) && x.process() == c.process())
                    .findFirst().orElse(null);
            if (o == null) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.runAsync(() -> {
                Vitals v = c.process() ? processVitals(c, supervised) : engine.vitals(o.id());
                if (v != null && !c.process()) {
                    v = v.withRestartsAtLeast(restarts.applyAsInt(o.id()));
                }
                if (v != null) {
                    seen.put(c.name(), (v.running() ? v.withHealth(health(c, d, o)) : v).seenAt(now));
                }
            }, pool);
        }).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(tries).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return Map.copyOf(seen);
    }

    private String health(ComponentSpec c, Declaration d, ObservedContainer o) {
        try {
            return c.process() ? new ProcessHealth(processes).once(c, d) : new HealthProbe(engine).once(c, o.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "not checked: the agent is stopping";
        }
    }

    private static Vitals processVitals(ComponentSpec c, List<ProcessStatus> supervised) {
        ProcessStatus s = supervised.stream().filter(p -> p.component().equals(c.name())).findFirst().orElse(null);
        if (s == null) {
            return null;
        }
        return new Vitals(s.state() == mesh.model.ProcessState.RUNNING, s.restarts(), s.lastExit(), instant(s.startedAt()), null);
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
