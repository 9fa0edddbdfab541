package mesh.wire;

/**
 * TakeRequest is the body of POST /v1/mesh/takes: take {@code module} to {@code node}, or with
 * {@code back} return it where the last take brought it from (then {@code node} is not given);
 * {@code dryRun} checks and says the steps, changing nothing; {@code stopAndCopy} copies only after the fence (no
 * pre-copy).
 */
public record TakeRequest(String node, String module, Boolean dryRun, Boolean back, Boolean stopAndCopy) {

    public TakeRequest(String node, String module, Boolean dryRun, Boolean back) {
        this(node, module, dryRun, back, null);
    }
}
