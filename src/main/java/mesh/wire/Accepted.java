package mesh.wire;

/**
 * Accepted is the agent's answer to a push ({@code PUT /v1/declaration}): the generation now held,
 * what it changes on this node, and whether it is already applied (nothing to change: the caller
 * need not poll the status). {@code note} says why there is no plan, when there is none.
 */
public record Accepted(String node, long generation, boolean applied, PlanView plan, String note) {
}
