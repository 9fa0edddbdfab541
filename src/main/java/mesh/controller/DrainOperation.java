package mesh.controller;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import mesh.plan.Drain;
import mesh.plan.DrainPlan;
import mesh.plan.Operation;
import mesh.store.DrainRecords;
import mesh.store.MeshStore;
import mesh.wire.DrainView;

/**
 * DrainOperation is the drain as the {@link OperationRunner} carries it out (docs/drain.md): found by its node, its record
 * in the store's drains ({@link DrainRecords}), decided by {@link DrainPlan}, one handler a step ({@link DrainSteps}).
 * Its takes run on the take's own runner, each with its lock, retries and deadlines.
 */
final class DrainOperation implements OperationRunner.Kind<String, Drain, String> {

    private final MeshStore store;
    private final AuditTrail audit;
    private final Map<Enum<?>, OperationRunner.Step<Drain, String>> steps = new HashMap<>();

    DrainOperation(MeshStore store, DrainSteps handlers, AuditTrail audit) {
        this.store = store;
        this.audit = audit;
        steps.putAll(handlers.handlers());
    }

    @Override
    public String name() {
        return "drain";
    }

    @Override
    public Operation.Plan<Drain> plan() {
        return DrainPlan.PLAN;
    }

    @Override
    public Optional<Drain> load(String node) {
        return store.inTransaction(c -> DrainRecords.running(c, node));
    }

    @Override
    public void save(Drain before, Drain next) {
        store.inTransaction(c -> {
            DrainRecords.save(c, next);
            if (next.step().ended() && !before.step().ended()) {
                audit.record(c, "drain", "node " + next.node() + ": drain " + next.step() + ", " + summary(next));
            }
            return null;
        });
    }

    @Override
    public Map<Enum<?>, OperationRunner.Step<Drain, String>> steps() {
        return steps;
    }

    /** What became of the modules, in a few words: {@code 11 moved, 1 failed}. */
    static String summary(Drain d) {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        d.modules().forEach(i -> counts.merge(i.state().word(), 1, Integer::sum));
        return counts.isEmpty() ? "no module to move" : String.join(", ", counts.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey()).toList());
    }

    /** The drain as {@code mesh drain} shows it. */
    static DrainView view(Drain d, boolean active, mesh.model.OperationState state) {
        return new DrainView(d.id(), d.node(), d.targets(), d.parallel(), d.deadline() == null ? null : d.deadline().toString(),
                d.step(), state, active, d.modules().stream().map(i -> new DrainView.Module(i.module(), i.state(), i.target(),
                        i.reason(), i.downtimeMs())).toList(), d.error(), d.problem());
    }
}
