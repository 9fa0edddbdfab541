package mesh.wire;

/**
 * RangeRequest is the body of {@code POST /v1/volumes/{module}/{volume}/ranges} (docs/take.md, "Deltas by range"): a
 * take's target asks the source for only the blocks of one file that differ from its own copy. {@code path} is the
 * file inside the volume, {@code block} the block size in bytes, {@code size} the target's copy's size and
 * {@code hashes} its per-block hashes ({@code mesh.plan.BlockDelta}). An agent from before ranges answers 404: the
 * target then fetches the file whole in the pass's archive.
 */
public record RangeRequest(String path, int block, long size, long[] hashes) {
}
