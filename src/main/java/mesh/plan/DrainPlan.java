package mesh.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mesh.model.DrainStep;
import mesh.plan.Drain.Item;
import mesh.model.DrainModuleState;

/**
 * DrainPlan is the drain's one rule (docs/drain.md): cordon, place, then move the pending modules K at a time until
 * none is pending. A module whose take failed is recorded failed with its reason and the drain goes on with the others;
 * once the drain's deadline passed, the modules whose take had not begun are left with that reason. A failed step is
 * tried again (the runner's {@link Operation.Retry}); a cordon or a placement that failed every try fails the drain
 * (nothing moved yet), a move that did waits, carried on by {@code mesh drain} asked again or the controller's start.
 */
public final class DrainPlan implements Operation.Plan<Drain> {

    public static final DrainPlan PLAN = new DrainPlan();

    /** The deadline of a batch of takes: each take's own steps have theirs; this bounds a batch that hangs on every one. */
    static final Duration MOVE_DEADLINE = Duration.ofHours(6);

    /** Placed is what the placement found: every module of the node, pending with its target or left with why. */
    public record Placed(List<Item> items) implements Operation.Outcome {
    }

    /** Moved is what a batch of takes found: each module's item after its take, and whether the drain's deadline passed. */
    public record Moved(List<Item> items, boolean deadlinePassed) implements Operation.Outcome {
    }

    /**
     * The modules the next batch moves: up to {@code parallel} pending ones in the placement's order, onto any targets:
     * two takes may start modules on one node at once (each start declaration keeps the other's module,
     * {@link TakeStart#whileStarting}; the drain's IT first saw them undo each other without it).
     */
    public static List<Item> batch(Drain d) {
        return d.pending().stream().limit(Math.max(1, d.parallel())).toList();
    }

    /** Whether the drain's deadline passed at {@code now}: no new take begins then. */
    public static boolean late(Drain d, java.time.Instant now) {
        return d.deadline() != null && now.isAfter(d.deadline());
    }

    @Override
    public Enum<?> step(Drain d) {
        return d.step();
    }

    @Override
    public boolean ended(Drain d) {
        return d.step().ended();
    }

    @Override
    public Drain after(Drain d, Operation.Outcome o) {
        if (o instanceof Operation.Failed f) {
            return d.at(d.step(), d.modules(), d.error(), f.words());
        }
        return switch (d.step()) {
            case CORDON -> d.at(DrainStep.PLACE, d.modules(), null, null);
            case PLACE -> {
                List<Item> items = o instanceof Placed p ? p.items() : d.modules();
                yield d.at(items.stream().anyMatch(i -> i.state() == DrainModuleState.PENDING) ? DrainStep.MOVE : DrainStep.DONE,
                        items, null, null);
            }
            case MOVE -> moved(d, o instanceof Moved m ? m : new Moved(List.of(), false));
            default -> d;
        };
    }

    private static Drain moved(Drain d, Moved m) {
        Map<String, Item> found = new HashMap<>();
        m.items().forEach(i -> found.put(i.module(), i));
        List<Item> items = new ArrayList<>();
        for (Item i : d.modules()) {
            Item now = found.getOrDefault(i.module(), i);
            if (now.state() == DrainModuleState.PENDING && m.deadlinePassed()) {
                now = now.with(DrainModuleState.LEFT, "the drain's deadline passed before its take began", null);
            }
            items.add(now);
        }
        boolean pending = items.stream().anyMatch(i -> i.state() == DrainModuleState.PENDING);
        return d.at(pending ? DrainStep.MOVE : DrainStep.DONE, items, null, null);
    }

    @Override
    public String problem(Drain d) {
        return d.problem();
    }

    @Override
    public Duration deadline(Drain d) {
        return switch (d.step()) {
            case CORDON -> Duration.ofSeconds(30);
            case PLACE -> Duration.ofMinutes(2);
            default -> MOVE_DEADLINE;
        };
    }

    @Override
    public String describe(Drain d) {
        return switch (d.step()) {
            case CORDON -> "cordon " + d.node();
            case PLACE -> "place the modules of " + d.node();
            case MOVE -> "move " + batch(d).stream().map(i -> i.module() + " to " + i.target()).toList() + ", "
                    + d.pending().size() + " pending";
            default -> d.step().word();
        };
    }

    @Override
    public Drain gaveUp(Drain d) {
        return d.step() == DrainStep.MOVE ? d : d.at(DrainStep.FAILED, d.modules(), d.problem(), null);
    }
}
