package mesh.wire;

/**
 * DiskView is {@code GET /v1/disk}: free space where a take's copy lands. {@code path}/{@code free} are the
 * tighter of the two places below (what a preflight compares with), {@code engine} the engine's data root
 * (container volumes), {@code state} the agent's state dir (process volumes).
 */
public record DiskView(String path, long free, Place engine, Place state) {

    /** Place is one folder and the bytes free on its file system. */
    public record Place(String path, long free) {
    }
}
