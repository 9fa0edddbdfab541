package mesh.wire;

/**
 * PlanCounts is what a plan does to containers, counted: created, replaced, removed, and left as they
 * are ({@code unchanged}; those only started count here), per node and summed over a push. The budget
 * counts {@code replace} and {@code remove} together.
 */
public record PlanCounts(int create, int replace, int remove, int unchanged) {

    public static final PlanCounts NONE = new PlanCounts(0, 0, 0, 0);

    /** The counts of an agent's plan as shown. */
    public static PlanCounts of(PlanView plan) {
        return new PlanCounts(plan.create().size(), plan.replace().size(), plan.remove().size(),
                plan.unchanged() + plan.start().size());
    }

    public PlanCounts plus(PlanCounts o) {
        return new PlanCounts(create + o.create, replace + o.replace, remove + o.remove, unchanged + o.unchanged);
    }

    public static PlanCounts sum(java.util.Collection<PlanCounts> each) {
        return each.stream().reduce(NONE, PlanCounts::plus);
    }
}
