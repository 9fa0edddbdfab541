package mesh.host;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import mesh.docker.DockerEngine;
import mesh.docker.Engine;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import mesh.host.take.FenceFilter;
import mesh.host.take.TakeRecords;

/**
 * HostIntake is the one way a declaration enters this host, whether it is pushed
 * ({@code PUT /v1/declaration}, through {@link HostAgent}) or given as a file
 * ({@code mesh host apply FILE}, through {@link #applyOnce}):
 *
 * <pre>
 *   for this node? ─► newer than the newest record? ─► record (fsync) ─► acknowledge ─► apply
 *   (400 / refused)    (409 / refused)                                   agent: its loop
 *                                                                        apply FILE: now, once
 * </pre>
 *
 * The generation rule is the only one: a declaration is taken only if its generation is newer than
 * the newest record, and a refusal records nothing and touches nothing. {@code apply FILE} may also
 * be given exactly the newest record again, which it applies again without recording it: that is the
 * one-shot verb's equivalent of the agent's next pass, and how an operator retries an apply that
 * failed part-way.
 */
public final class HostIntake implements AutoCloseable {

    private final String node;
    private final DeclarationRecords records;
    private final Engine engine;
    private final Clock clock;
    private final int parallelism;
    private final ProcessComponents processes;
    /** The node's range for new module networks (MESH_HOST_NETWORKS). */
    private final mesh.model.Cidr networks;
    /** The fences recorded beside the declarations (same state dir): every apply honours them. */
    private final TakeRecords takes;

    /** An intake for {@code node} (null: whatever node the declaration names, for a local verb without one). */
    HostIntake(String node, DeclarationRecords records, Engine engine, Clock clock, int parallelism) {
        this(node, records, engine, null, clock, parallelism);
    }

    /** As above, with the supervisor's processes beside the engine's containers (null: containers only). */
    HostIntake(String node, DeclarationRecords records, Engine engine, ProcessComponents processes, Clock clock,
               int parallelism) {
        this(node, records, engine, processes, mesh.plan.NetworkRange.DEFAULT, clock, parallelism);
    }

    /** As above, with the node's range for new module networks (MESH_HOST_NETWORKS). */
    HostIntake(String node, DeclarationRecords records, Engine engine, ProcessComponents processes,
               mesh.model.Cidr networks, Clock clock, int parallelism) {
        this.networks = networks;
        this.processes = processes;
        this.node = node;
        this.records = records;
        this.engine = engine;
        this.clock = clock;
        this.parallelism = parallelism;
        this.takes = new TakeRecords(records.dir().getParent());
    }

    /** The intake of a local verb: this host's engine and records, as the settings name them. */
    public static HostIntake local(HostSettings settings) {
        return new HostIntake(settings.node(), new DeclarationRecords(settings.stateDir()),
                new DockerEngine(settings.engine()), ProcessComponents.of(settings.stateDir()), settings.networks(),
                Clock.systemUTC(),
                settings.parallelism());
    }

    public DeclarationRecords records() {
        return records;
    }

    /**
     * Takes a declaration: refuses one for another node or not newer than the newest record, else
     * records it durably. {@code whileHeld} runs before anyone else can take one, so the caller can
     * make it the desired state without a newer push overtaking it.
     */
    public DeclarationRecord accept(Declaration d, Consumer<Declaration> whileHeld) {
        return accept(d, null, whileHeld);
    }

    /** As {@link #accept(Declaration, Consumer)}, for a declaration read from {@code file} (null: a push). */
    synchronized DeclarationRecord accept(Declaration d, String file, Consumer<Declaration> whileHeld) {
        requireOwnNode(d);
        long last = records.lastGeneration();
        if (d.generation() <= last) {
            throw new DeclarationRefused(DeclarationRefused.Reason.NOT_NEWER, "generation " + d.generation()
                    + " is not newer than the last accepted, " + last + "; nothing was changed");
        }
        Declaration full = withSecretValues(d);
        DeclarationRecord record = records.write(full, clock.instant(), file);
        whileHeld.accept(full);
        return record;
    }

    /**
     * {@code d} with each secret value it came without taken from the newest record (same secret, version
     * and hash); one that is neither sent nor held refuses the declaration, naming it.
     */
    Declaration withSecretValues(Declaration d) {
        if (d.components().stream().allMatch(c -> c.secrets().values().stream().allMatch(r -> r.value() != null))) {
            return d;
        }
        List<String> problems = new java.util.ArrayList<>();
        Declaration full = NodeSecrets.filled(d, records.latest().map(DeclarationRecord::declaration).orElse(null), problems);
        if (!problems.isEmpty()) {
            throw new DeclarationRefused(DeclarationRefused.Reason.MISSING_SECRET, String.join("; ", problems) + "; nothing was changed");
        }
        return full;
    }

    /** What a declaration would change against what runs now; refuses one for another node; records nothing. */
    public HostPlan preview(Declaration d) {
        requireOwnNode(d);
        try {
            return unfenced(d).plan();
        } catch (RuntimeException e) {
            throw new HostFailure("the engine did not answer: " + e.getMessage(), e);
        }
    }

    /**
     * Unfenced is what an apply may touch: the declaration and the observed components, both without the
     * modules fenced at one moment (read once, so the two never disagree about a module) and without those the start
     * hold keeps back ({@code held}: {@link StartGate}).
     */
    record Unfenced(Declaration declaration, List<ObservedContainer> observed, java.util.Set<String> fenced,
                    List<ObservedContainer> all, java.util.Set<String> held) {
        Unfenced(Declaration declaration, List<ObservedContainer> observed, java.util.Set<String> fenced,
                 List<ObservedContainer> all) {
            this(declaration, observed, fenced, all, java.util.Set.of());
        }

        HostPlan plan() {
            return HostDiff.between(declaration, observed);
        }

        /** The modules no apply touches now: the fenced and the held. */
        java.util.Set<String> untouched() {
            if (held.isEmpty()) {
                return fenced;
            }
            java.util.Set<String> both = new java.util.TreeSet<>(fenced);
            both.addAll(held);
            return both;
        }
    }

    /** The start hold's modules held back now, given the declaration and what runs ({@link StartGate}); none until set. */
    private volatile java.util.function.BiFunction<Declaration, List<ObservedContainer>, java.util.Set<String>> held =
            (d, all) -> java.util.Set.of();

    /** Has every apply through this intake leave out the modules {@code held} names (the agent's start hold). */
    void holdWith(java.util.function.BiFunction<Declaration, List<ObservedContainer>, java.util.Set<String>> held) {
        this.held = held;
    }

    /** The declaration and what runs now, without the fenced and the held modules (docs/take.md: a fence is honoured by every apply). */
    Unfenced unfenced(Declaration d) {
        java.util.Set<String> fenced = takes.fenced();
        List<ObservedContainer> all = observe(d.node());
        java.util.Set<String> held = this.held.apply(d, all);
        java.util.Set<String> out = new Unfenced(d, all, fenced, all, held).untouched();
        return new Unfenced(FenceFilter.declaration(d, out), FenceFilter.observed(all, out), fenced, all, held);
    }

    /** The modules fenced here now. */
    java.util.Set<String> fenced() {
        return takes.fenced();
    }

    /** The engine's containers of this node and the supervisor's processes, for a diff. */
    List<ObservedContainer> observe(String forNode) {
        List<ObservedContainer> containers = engine.list(forNode);
        if (processes == null) {
            return containers;
        }
        List<ObservedContainer> all = new java.util.ArrayList<>(containers);
        all.addAll(processes.observe(clock.instant()));
        return all;
    }

    ProcessComponents processes() {
        return processes;
    }

    /** Once is what {@link #applyOnce} did: the plan, what it changed and failed, and whether it was recorded now. */
    public record Once(HostPlan plan, ApplyReport report, boolean recorded) {
    }

    /**
     * Takes a declaration (or exactly the newest record again) and applies it now, once, writing one
     * line per change to {@code log}. A component that fails fails only itself and what waits on it.
     */
    public Once applyOnce(Declaration d, Consumer<String> log) {
        return applyOnce(d, null, log);
    }

    /**
     * As {@link #applyOnce(Declaration, Consumer)}, for a declaration read from {@code file} on this
     * node: its record names the file ({@link DeclarationRecord#file}).
     */
    public Once applyOnce(Declaration d, String file, Consumer<String> log) {
        requireOwnNode(d);
        boolean again = records.latest().map(r -> r.declaration().equals(d)).orElse(false);
        if (!again) {
            accept(d, file, taken -> { });
        }
        HostPlan plan;
        Declaration allowed;
        try {
            Unfenced view = unfenced(d);
            allowed = view.declaration();
            plan = view.plan();
        } catch (RuntimeException e) {
            throw new HostFailure("generation " + d.generation() + " is recorded, but the engine did not answer: "
                    + e.getMessage() + "; give the same declaration again to apply it", e);
        }
        ExecutorService pool = Executors.newFixedThreadPool(parallelism);
        try {
            return new Once(plan, new ApplyRun(engine, processes, networks, pool, log, null).run(allowed, plan), !again);
        } finally {
            pool.shutdownNow();
        }
    }

    private void requireOwnNode(Declaration d) {
        if (node != null && !node.equals(d.node())) {
            throw new DeclarationRefused(DeclarationRefused.Reason.OTHER_NODE, "the declaration is for node '"
                    + d.node() + "', this host is '" + node + "'; nothing was changed");
        }
    }

    @Override
    public void close() {
        engine.close();
    }
}
