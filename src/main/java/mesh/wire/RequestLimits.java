package mesh.wire;

/**
 * RequestLimits are the sizes both APIs take: a request body of at most {@link #MAX_BODY_BYTES}
 * ({@code quarkus.http.limits.max-body-size}, written in application.properties as the same
 * number). Clients check a body against it before sending, so an operator hears "too large"
 * instead of a connection cut mid-upload.
 */
public final class RequestLimits {

    /** 10 MiB: the HTTP layer's default, stated. */
    public static final long MAX_BODY_BYTES = 10L * 1024 * 1024;

    private RequestLimits() {
    }

    /** A size in words, "12.0 MB" (MB = 2^20 bytes, as the limit is written). */
    public static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1024.0 / 1024.0);
    }

    /** What a body of {@code bytes} is told: its size and the limit. */
    public static String tooLarge(long bytes) {
        return "the request body is " + megabytes(bytes) + " (" + bytes + " bytes); the API takes at most "
                + megabytes(MAX_BODY_BYTES) + " (" + MAX_BODY_BYTES + " bytes) in one request";
    }
}
