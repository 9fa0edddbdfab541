package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * CopyProgress is one line of the copy endpoint's NDJSON answer (docs/take.md): while copying,
 * {@code {"bytes","files","rate"}} once a second; at the end {@code {"done": true, "bytes", "files", "seconds"}}
 * or {@code {"done": false, "error"}}; a take's pass adds {@code "deleted"} and {@code "since"} (the source's clock when
 * it began) to its final line. Absent fields are left out of the line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CopyProgress(Boolean done, Long bytes, Long files, Long rate, Double seconds, String error, Long deleted,
                           Long since) {

    public static CopyProgress running(long bytes, long files, long rate) {
        return new CopyProgress(null, bytes, files, rate, null, null, null, null);
    }

    public static CopyProgress finished(long bytes, long files, double seconds) {
        return new CopyProgress(true, bytes, files, null, seconds, null, null, null);
    }

    /** A pass's end: also the entries it deleted on the target and the source's clock when it began (ms). */
    public static CopyProgress finished(long bytes, long files, double seconds, long deleted, long since) {
        return new CopyProgress(true, bytes, files, null, seconds, null, deleted, since);
    }

    public static CopyProgress failed(String error) {
        return new CopyProgress(false, null, null, null, null, error, null, null);
    }
}
