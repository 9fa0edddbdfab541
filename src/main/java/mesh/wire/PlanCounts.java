package mesh.wire;

import mesh.plan.PushDecision;

/**
 * PlanCounts is what a plan does to containers, counted: created, replaced, removed, and left as they
 * are ({@code unchanged}; those only started count here), per node and summed over a push. The budget
 * counts {@code replace} and {@code remove} together.
 */
public record PlanCounts(int create, int replace, int remove, int unchanged) {

    /** The counts of an agent's plan as shown. */
    public static PlanCounts of(PlanView plan) {
        return of(counted(plan));
    }

    /** The same, as {@link PushDecision#judge} takes them. */
    public static PushDecision.Counts counted(PlanView plan) {
        return new PushDecision.Counts(plan.create().size(), plan.replace().size(), plan.remove().size(),
                plan.unchanged() + plan.start().size());
    }

    public static PlanCounts of(PushDecision.Counts c) {
        return new PlanCounts(c.create(), c.replace(), c.remove(), c.unchanged());
    }
}
