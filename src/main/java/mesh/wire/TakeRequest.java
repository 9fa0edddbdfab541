package mesh.wire;

/**
 * TakeRequest is the body of POST /v1/mesh/takes: take {@code module} to {@code node}, or with
 * {@code back} return it where the last take brought it from (then {@code node} is not given);
 * {@code dryRun} checks and says the steps, changing nothing.
 */
public record TakeRequest(String node, String module, Boolean dryRun, Boolean back) {
}
