package mesh.host;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import mesh.docker.Engine;
import mesh.host.process.ProcessSpec;
import mesh.host.process.ProcessSupervisor;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.Labels;
import mesh.model.ObservedContainer;
import mesh.plan.HostPlan;
import mesh.plan.NetworkRange;

/**
 * ApplyRun carries out one {@link HostPlan} on the engine and the process supervisor, the only place the
 * agent writes:
 *
 * <pre>
 *   remove (no longer declared)  ──►  networks, volumes (only if missing)
 *        ──►  per component, as soon as everything it starts {@code after} is healthy:
 *               create │ replace = stop(grace) → remove → create → start │ cutover (CutoverRun) │ start │ keep
 *               └─► wait for health, if anything changing waits on it
 * </pre>
 *
 * A process ({@code bundle:}) goes through {@link ProcessComponents}: fetch and verify, then the
 * supervisor's apply, which stops the old copy and starts the new one itself. Containers and processes
 * are ordered by {@code after} and waited on for health alike. Components nothing orders run in parallel. A failed component fails only itself and what waits
 * on it. Volumes are never deleted (docs/design.md, invariant 8).
 */
public final class ApplyRun {

    private final Engine engine;
    private final ExecutorService pool;
    private final HealthProbe health;
    private final Consumer<String> log;
    private final ProcessComponents processes;

    private final mesh.model.Cidr networks;
    /** This node's edge, for a cutover; null: a cutover is replaced stop-first (a run without the agent's edge). */
    private final CutoverEdge edge;

    /** A run for containers only: a process component fails, saying there is no supervisor here. */
    public ApplyRun(Engine engine, ExecutorService pool, Consumer<String> log) {
        this(engine, null, NetworkRange.DEFAULT, pool, log, null);
    }

    /**
     * A run whose new module networks take their subnets from {@code networks} (MESH_HOST_NETWORKS),
     * away from the node's addresses and routes ({@link ModuleNetworks}), and that cuts over through {@code edge}
     * ({@link CutoverRun}; null: stop-first).
     */
    ApplyRun(Engine engine, ProcessComponents processes, mesh.model.Cidr networks, ExecutorService pool,
             Consumer<String> log, CutoverEdge edge) {
        this.edge = edge;
        this.engine = engine;
        this.networks = networks;
        this.processes = processes;
        this.pool = pool;
        this.health = new HealthProbe(engine);
        this.log = log;
    }

    public ApplyReport run(Declaration declaration, HostPlan plan) {
        ApplyReport report = new ApplyReport();
        if (plan.isEmpty()) {
            return report;
        }
        removeAll(plan.remove(), report);
        Map<String, Action> actions = actions(plan);
        Set<String> prepared = prepare(declaration, actions, report);
        Map<String, CompletableFuture<String>> done = new HashMap<>();
        for (ComponentSpec c : declaration.components()) {
            schedule(c, declaration, actions, prepared, done, report);
        }
        CompletableFuture.allOf(done.values().toArray(CompletableFuture[]::new))
                .exceptionally(ignored -> null).join();
        return report;
    }

    private void removeAll(List<ObservedContainer> remove, ApplyReport report) {
        CompletableFuture<?>[] removals = remove.stream().map(o -> CompletableFuture.runAsync(() -> {
            try {
                if (o.process()) {
                    processes().remove(o.name(), Instant.now());
                } else {
                    engine.stop(o.id(), null);
                    engine.remove(o.id());
                }
                changed(report, "removed " + o.name() + " (" + o.module() + "): no longer declared");
            } catch (RuntimeException e) {
                report.failed(o.name(), "could not remove: " + e.getMessage());
            }
        }, pool)).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(removals).join();
    }

    /** Networks and volumes for what will be created; a component whose preparation fails is marked. */
    private Set<String> prepare(Declaration d, Map<String, Action> actions, ApplyReport report) {
        Map<String, String> networks = new HashMap<>();   // network -> "" when there, else why not
        ModuleNetworks made = new ModuleNetworks(engine, this.networks, HostNetworks::read);
        Set<String> ready = new HashSet<>();
        for (ComponentSpec c : d.components()) {
            if (!actions.get(c.name()).creates() || c.process()) {   // a process's folders: ProcessComponents.prepare
                ready.add(c.name());
                continue;
            }
            String failure = c.network() == null ? null : networks.computeIfAbsent(c.network(), n -> Objects.toString(
                    failureOf(() -> made.ensure(n, d.node(), c.module())), ""));
            failure = failure == null || failure.isEmpty() ? null : failure;
            for (String volume : ContainerRequest.of(c, d.address()).mounts().keySet()) {
                failure = failure != null ? failure
                        : failureOf(() -> engine.ensureVolume(volume, Labels.forVolume(d.node(), c.module())));
            }
            if (failure == null) {
                ready.add(c.name());
            } else {
                report.failed(c.name(), failure);
            }
        }
        return ready;
    }

    /** The failure's message, or null when the engine call went through. */
    private static String failureOf(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    private CompletableFuture<String> schedule(ComponentSpec c, Declaration d, Map<String, Action> actions,
                                               Set<String> prepared, Map<String, CompletableFuture<String>> done,
                                               ApplyReport report) {
        CompletableFuture<String> existing = done.get(c.name());
        if (existing != null) {
            return existing;
        }
        CompletableFuture<?>[] deps = c.after().stream()
                .map(dep -> schedule(d.component(dep).orElseThrow(), d, actions, prepared, done, report))
                .toArray(CompletableFuture[]::new);
        CompletableFuture<String> future = CompletableFuture.allOf(deps).handleAsync((ok, depFailure) -> {
            if (depFailure != null) {
                String reason = "not started: waits on " + String.join(", ", c.after()) + ", which failed";
                report.failed(c.name(), reason);
                throw new CompletionException(new IllegalStateException(reason));
            }
            if (!prepared.contains(c.name())) {
                throw new CompletionException(new IllegalStateException("not prepared"));
            }
            try {
                Action action = actions.get(c.name());
                String id = perform(action, d, report);
                if (waitedOnByChange(c, d, actions)) {
                    if (c.process()) {
                        new ProcessHealth(processes()).awaitReady(c, d);
                    } else {
                        health.awaitReady(c, id);
                    }
                }
                return id;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                report.failed(c.name(), "interrupted");
                throw new CompletionException(e);
            } catch (RuntimeException e) {
                report.failed(c.name(), e.getMessage());
                throw new CompletionException(e);
            }
        }, pool);
        done.put(c.name(), future);
        return future;
    }

    private String perform(Action a, Declaration d, ApplyReport report) throws InterruptedException {
        ComponentSpec c = a.spec();
        if (c.process() || (a.current() != null && a.current().process())) {
            return performProcess(a, d, report);
        }
        String where = c.name() + " (" + c.module() + ")";
        switch (a.kind()) {
            case CREATE -> {
                String id = engine.create(ContainerRequest.declared(c, d));
                engine.start(id, !c.ports().isEmpty());
                changed(report, "created " + where);
                return id;
            }
            case REPLACE -> {
                if (a.cutover() && edge != null) {
                    String id = new CutoverRun(engine, health, edge, mesh.plan.Cutover.DRAIN, log).run(c, a.current(), d);
                    changed(report, "updated " + where + ": cut over; " + String.join(", ", a.fields()) + " changed");
                    return id;
                }
                engine.stop(a.current().id(), Duration.ofSeconds(c.stopTimeout()));
                engine.remove(a.current().id());
                String id = engine.create(ContainerRequest.declared(c, d));
                engine.start(id, !c.ports().isEmpty());
                changed(report, "updated " + where + ": replaced; " + String.join(", ", a.fields()) + " changed");
                return id;
            }
            case START -> {
                engine.start(a.current().id(), !c.ports().isEmpty());
                changed(report, "started " + where + ": it was not running");
                return a.current().id();
            }
            default -> {
                return a.current().id();
            }
        }
    }

    /**
     * A process's action, or a change of kind. The bundle is fetched and verified before anything is
     * stopped, so a fetch that fails leaves what ran before running.
     */
    private String performProcess(Action a, Declaration d, ApplyReport report) {
        ComponentSpec c = a.spec();
        String where = c.name() + " (" + c.module() + ")";
        if (a.kind() == Kind.KEEP) {
            return a.current().id();
        }
        if (!c.process()) {   // a process becomes a container
            processes().remove(a.current().name(), Instant.now());
            String id = engine.create(ContainerRequest.declared(c, d));
            engine.start(id, !c.ports().isEmpty());
            changed(report, "updated " + where + ": replaced; " + String.join(", ", a.fields()));
            return id;
        }
        ProcessSpec spec = processes().prepare(c, d);
        if (a.current() != null && !a.current().process()) {   // a container becomes a process
            engine.stop(a.current().id(), Duration.ofSeconds(c.stopTimeout()));
            engine.remove(a.current().id());
        }
        ProcessSupervisor.Outcome outcome = processes().start(spec, Instant.now());
        String id = ProcessComponents.ID_PREFIX + outcome.pid();
        switch (a.kind()) {
            case CREATE -> changed(report, "created " + where + ": process " + outcome.action() + ", pid " + outcome.pid());
            case REPLACE -> changed(report, "updated " + where + ": replaced; " + String.join(", ", a.fields())
                    + (a.current().process() ? " changed" : "") + "; pid " + outcome.pid());
            default -> {
                if (outcome.action() != mesh.host.process.ProcessSupervisor.Action.KEPT) {
                    changed(report, "started " + where + ": it was not running; pid " + outcome.pid());
                }
            }
        }
        return id;
    }

    private ProcessComponents processes() {
        if (processes == null) {
            throw new IllegalStateException("a process (bundle) needs the host agent's supervisor; this run has none");
        }
        return processes;
    }

    /** Whether something that changes in this pass starts after {@code c}: only then is its health awaited. */
    private static boolean waitedOnByChange(ComponentSpec c, Declaration d, Map<String, Action> actions) {
        return d.components().stream()
                .anyMatch(other -> other.after().contains(c.name()) && actions.get(other.name()).changes());
    }

    private void changed(ApplyReport report, String line) {
        report.changed(line);
        log.accept(line);
    }

    private static Map<String, Action> actions(HostPlan plan) {
        Map<String, Action> actions = new HashMap<>();
        plan.create().forEach(c -> actions.put(c.name(), new Action(Kind.CREATE, c, null, List.of(), false)));
        plan.replace().forEach(r -> actions.put(r.spec().name(), new Action(Kind.REPLACE, r.spec(), r.current(), r.fields(), r.cutover())));
        plan.start().forEach(s -> actions.put(s.spec().name(), new Action(Kind.START, s.spec(), s.current(), List.of(), false)));
        plan.keep().forEach(k -> actions.put(k.spec().name(), new Action(Kind.KEEP, k.spec(), k.current(), List.of(), false)));
        return actions;
    }

    enum Kind { CREATE, REPLACE, START, KEEP }

    record Action(Kind kind, ComponentSpec spec, ObservedContainer current, List<String> fields, boolean cutover) {
        boolean changes() {
            return kind != Kind.KEEP;
        }

        boolean creates() {
            return kind == Kind.CREATE || kind == Kind.REPLACE;
        }
    }
}
