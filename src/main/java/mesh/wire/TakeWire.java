package mesh.wire;

import java.util.List;

/**
 * TakeWire holds the bodies of the agent's take calls as the controller sends and reads them
 * (docs/take.md, "The wire between the controller and the agents"): fences, read tickets, copies,
 * old copies, volumes and free space. Read leniently, as every agent answer is.
 */
public final class TakeWire {

    private TakeWire() {
    }

    /** The body of PUT /v1/fences/{module}, POST .../tickets: the take's epoch. */
    public record Epoch(long epoch) {
    }

    /** PUT /v1/fences/{module}'s answer: the module's components it stopped. */
    public record Fenced(String module, long epoch, List<String> stopped) {
    }

    /** DELETE /v1/fences/{module}'s answer. */
    public record Lifted(String module, boolean lifted) {
    }

    /** POST /v1/volumes/{module}/tickets's answer. */
    public record Ticket(String ticket) {
    }

    /** The body of POST /v1/volumes/{module}/{volume}/copy: copy from the source agent at {@code from} with the ticket. */
    public record Copy(long epoch, String kind, String from, String ticket) {
    }

    /** One line of the copy's answer: progress, or the last line ({@code done} true or false, with the error). */
    public record CopyLine(Boolean done, long bytes, long files, double rate, double seconds, String error) {
    }

    /** The body of POST /v1/volumes/{module}/old-copy. */
    public record OldCopy(long epoch, List<String> volumes) {
    }

    /** One volume of GET /v1/volumes/{module}: its size, and the take's epoch whose old copy it is (null: none). */
    public record Volume(String volume, String kind, long bytes, long files, Long oldCopyOf) {
    }

    /** GET /v1/disk: free bytes where the node keeps data (the engine's data root, the state dir). */
    public record Disk(String path, long free) {
    }
}
