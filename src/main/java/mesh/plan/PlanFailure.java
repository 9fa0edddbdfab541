package mesh.plan;

import java.util.List;

/**
 * PlanFailure is a plan that cannot be made. It is never a smaller roster (docs/design.md, invariant 3): the push
 * fails, says which node and why, and sends nothing.
 */
public class PlanFailure extends RuntimeException {
    private final List<String> problems;

    public PlanFailure(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
