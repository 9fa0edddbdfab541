package mesh.plan;

import java.time.Instant;
import java.util.List;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;

/**
 * Drain is one drain's record as the store keeps it: the node emptied, the {@code --to} nodes asked (empty: any not
 * cordoned), how many takes run at once ({@code parallel}), the instant after which no new take starts
 * ({@code deadline}, null: none), the step it carries out next, each module's {@link Item}, why it failed
 * ({@code error}) and why the last try of its step did not go through ({@code problem}).
 */
public record Drain(long id, String node, List<String> targets, int parallel, Instant deadline, DrainStep step,
                    List<Item> modules, String error, String problem) {

    public Drain {
        targets = targets == null ? List.of() : List.copyOf(targets);
        modules = modules == null ? List.of() : List.copyOf(modules);
    }

    /** What became of one module: where it goes, why it did not, and how long it was down when it moved (ms). */
    public record Item(String module, DrainModuleState state, String target, String reason, Long downtimeMs) {

        public Item with(DrainModuleState s, String why, Long downtime) {
            return new Item(module, s, target, why, downtime);
        }
    }

    /** A drain begun: nothing placed yet. */
    public static Drain start(long id, String node, List<String> targets, int parallel, Instant deadline) {
        return new Drain(id, node, targets, parallel, deadline, DrainStep.CORDON, List.of(), null, null);
    }

    public Drain at(DrainStep s, List<Item> items, String err, String prob) {
        return new Drain(id, node, targets, parallel, deadline, s, items, err, prob);
    }

    /** The modules still waiting for their take. */
    public List<Item> pending() {
        return modules.stream().filter(i -> i.state() == DrainModuleState.PENDING).toList();
    }
}
