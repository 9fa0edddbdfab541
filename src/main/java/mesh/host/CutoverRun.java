package mesh.host;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import mesh.docker.Engine;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.HealthCheck;
import mesh.model.ObservedContainer;
import mesh.plan.Cutover;

/**
 * CutoverRun carries out one cutover, the steps {@link Cutover} states: the new copy beside the old on free host
 * ports, its health check waited for (the manifest's deadline), this node's edge pointed at it, the old copy drained
 * for {@link Cutover#DRAIN} and then stopped and removed, and the new copy given the component's name. A new copy
 * that never becomes healthy, or that the edge could not be pointed at, is removed and the old one serves on; the
 * failure names the health check and its last answer.
 */
final class CutoverRun {

    private final Engine engine;
    private final HealthProbe health;
    private final CutoverEdge edge;
    private final Duration drain;
    private final Consumer<String> log;

    CutoverRun(Engine engine, HealthProbe health, CutoverEdge edge, Duration drain, Consumer<String> log) {
        this.engine = engine;
        this.health = health;
        this.edge = edge;
        this.drain = drain;
        this.log = log;
    }

    /** Cuts {@code old} over to {@code spec}; the new copy's container id. */
    String run(ComponentSpec spec, ObservedContainer old, Declaration d) throws InterruptedException {
        String where = spec.name() + " (" + spec.module() + ")";
        Map<Integer, Integer> ports = FreePorts.pick(d.address(), spec.ports());
        ContainerRequest request = ContainerRequest.of(spec, d.address(), d.node(), d.generation())
                .beside(spec.name() + Cutover.NEXT, ports);
        String id = engine.create(request);
        try {
            engine.start(id, !request.ports().isEmpty());
            health.awaitReady(spec, id);
        } catch (RuntimeException e) {
            removeQuietly(id);
            throw new IllegalStateException("cutover stopped: the new copy never passed its health check ("
                    + words(spec.health()) + "): " + e.getMessage() + "; it was removed and the old copy serves on", e);
        }
        Map<String, Cutover.Pin> pins = new LinkedHashMap<>();
        ports.forEach((port, host) -> pins.put(Cutover.key(spec.module(), port), new Cutover.Pin(id, host)));
        String notServed = edge.pin(d, pins);
        if (notServed != null) {
            edge.unpin(d, pins.keySet());
            removeQuietly(id);
            throw new IllegalStateException("cutover stopped: the edge could not be pointed at the new copy (" + notServed
                    + "); it was removed and the old copy serves on");
        }
        log.accept("cutover " + where + ": the edge sends its routes to the new copy (ports " + ports
                + "); draining the old one for " + drain.toSeconds() + "s");
        mesh.model.Poll.pauseInterruptibly(drain);
        engine.stop(old.id(), Duration.ofSeconds(spec.stopTimeout()));
        engine.remove(old.id());
        engine.rename(id, spec.name());
        return id;
    }

    /** The health check in the manifest's words, so a failed cutover names it. */
    static String words(HealthCheck check) {
        if (check == null) {
            return "no health check";
        }
        return check.http() != null ? "GET " + check.http() + " on port " + check.port()
                : "command " + String.join(" ", check.command() == null ? List.of() : check.command());
    }

    private void removeQuietly(String id) {
        try {
            engine.stop(id, Duration.ZERO);
            engine.remove(id);
        } catch (RuntimeException e) {
            log.accept("cutover: could not remove the new copy " + id + ": " + e.getMessage() + " (the next pass removes it)");
        }
    }
}
