package mesh.wire;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * CopyProgress is one line of the copy endpoint's NDJSON answer (docs/take.md): while copying,
 * {@code {"bytes","files","rate"}} once a second; at the end {@code {"done": true, "bytes", "files", "seconds"}}
 * or {@code {"done": false, "error"}}. Absent fields are left out of the line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CopyProgress(Boolean done, Long bytes, Long files, Long rate, Double seconds, String error) {

    public static CopyProgress running(long bytes, long files, long rate) {
        return new CopyProgress(null, bytes, files, rate, null, null);
    }

    public static CopyProgress finished(long bytes, long files, double seconds) {
        return new CopyProgress(true, bytes, files, null, seconds, null);
    }

    public static CopyProgress failed(String error) {
        return new CopyProgress(false, null, null, null, null, error);
    }
}
