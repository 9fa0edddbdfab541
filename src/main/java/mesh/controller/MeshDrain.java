package mesh.controller;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import mesh.model.Conflict;
import mesh.model.DurationText;
import mesh.model.InvalidInput;
import mesh.model.Node;
import mesh.model.NotFound;
import mesh.model.OperationState;
import mesh.model.Poll;
import mesh.plan.Drain;
import mesh.plan.DrainCheck;
import mesh.store.DrainRecords;
import mesh.store.MeshStore;
import mesh.store.NodeCordons;
import mesh.wire.DrainRequest;
import mesh.wire.DrainView;

/**
 * MeshDrain is {@code mesh drain} (docs/drain.md): it checks the request before anything moves, records the drain and
 * hands it to its {@link OperationRunner} ({@link DrainOperation}: {@link DrainSteps} acts, {@code DrainPlan} decides).
 * The operator's call returns at once; {@code mesh drain} follows with {@link #view}. A drain whose runner died or let
 * go is carried on by {@code mesh drain} of its node asked again, and by a controller's start ({@link #resumeAll}).
 */
@ApplicationScoped
public class MeshDrain {

    @Inject MeshStore store;
    @Inject MeshTake takes;
    @Inject AgentClient agents;
    @Inject AuditTrail audit;

    private DrainSteps steps;
    private OperationRunner<String, Drain, String> runner;

    @PostConstruct
    void init() {
        steps = new DrainSteps(store, takes, agents, Poll.SYSTEM);
        runner = new OperationRunner<>(new DrainOperation(store, steps, audit));
    }

    /** Begins a drain, carries on one of the node that no runner carries out, or (a dry run) says where each module would go. */
    public DrainView begin(DrainRequest r) {
        List<String> to = r.to() == null ? List.of() : r.to();
        int parallel = r.parallel() == null ? 1 : r.parallel();
        Duration deadline = r.deadline() == null ? null : parse(r.deadline());
        boolean dryRun = Boolean.TRUE.equals(r.dryRun());
        Drain d = store.inTransaction(c -> {
            Set<String> nodes = store.nodes(c).stream().map(Node::name).collect(Collectors.toSet());
            List<String> problems = DrainCheck.problems(r.node(), to, parallel, nodes, NodeCordons.cordoned(c));
            if (!problems.isEmpty()) {
                throw new InvalidInput(problems.stream().map(p -> "drain: " + p).toList());
            }
            Optional<Drain> running = DrainRecords.running(c, r.node());
            if (running.isPresent()) {
                if (runner.active(r.node()) || dryRun) {
                    throw new Conflict("a drain of node " + r.node() + " is already under way (step " + running.get().step()
                            + ", " + DrainOperation.summary(running.get()) + "); 'mesh drain --status " + r.node() + "' shows it");
                }
                return running.get();
            }
            Drain begun = Drain.start(0, r.node(), to, parallel, deadline == null ? null : Instant.now().plus(deadline));
            if (dryRun) {
                return begun;
            }
            long id = DrainRecords.insert(c, begun);
            audit.record(c, "drain", "node " + r.node() + ": drain begun" + (to.isEmpty() ? "" : " to " + String.join(", ", to))
                    + ", " + parallel + " at a time" + (deadline == null ? "" : ", deadline " + DurationText.words(deadline)));
            return new Drain(id, begun.node(), begun.targets(), begun.parallel(), begun.deadline(), begun.step(), List.of(), null, null);
        });
        if (dryRun) {
            return DrainOperation.view(d.at(d.step(), steps.place(d), null, null), false, OperationState.DRY_RUN);
        }
        if (!runner.start(d.node())) {
            throw new Conflict("a drain of node " + d.node() + " is already being carried out by another controller");
        }
        return DrainOperation.view(d, runner.active(d.node()), d.step().state());
    }

    private static Duration parse(String text) {
        String problem = DurationText.problem(text);
        if (problem != null) {
            throw new InvalidInput(List.of("drain: --deadline " + problem));
        }
        return DurationText.parse(text);
    }

    /** Carries on every drain a dead runner left (a controller's start). */
    public void resumeAll() {
        runner.resume(store.inTransaction(DrainRecords::running).stream().map(Drain::node).toList());
    }

    /** The node's newest drain as it stands. */
    public DrainView view(String node) {
        Drain d = store.inTransaction(c -> DrainRecords.newest(c, node)).orElseThrow(() -> new NotFound("node " + node
                + " was never drained"));
        return DrainOperation.view(d, runner.active(node), d.step().state());
    }

    /** The newest drain of each node; {@code running}: only those under way (for {@code mesh status}). */
    public List<DrainView> list(boolean running) {
        return store.inTransaction(c -> running ? DrainRecords.running(c) : DrainRecords.newestEach(c)).stream()
                .map(d -> DrainOperation.view(d, runner.active(d.node()), d.step().state())).toList();
    }
}
