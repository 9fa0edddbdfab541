package mesh.host.take;

import mesh.wire.Reason;

/**
 * TakeRefused is a take call this node turns down, with the HTTP status it answers (400 bad input, 404
 * nothing there, 409 the state forbids it) and a message that names the module or volume. A refusal
 * changes nothing.
 */
public final class TakeRefused extends RuntimeException {

    private final int status;
    private final Reason reason;

    public TakeRefused(int status, String message) {
        this(status, Reason.of(status), message);
    }

    TakeRefused(int status, Reason reason, String message) {
        super(message);
        this.status = status;
        this.reason = reason;
    }

    public int status() {
        return status;
    }

    /** Why, for the caller's program (the API's {@code reason}). */
    public Reason reason() {
        return reason;
    }

    public static TakeRefused conflict(String message) {
        return new TakeRefused(409, message);
    }

    public static TakeRefused conflict(Reason reason, String message) {
        return new TakeRefused(409, reason, message);
    }

    public static TakeRefused bad(String message) {
        return new TakeRefused(400, message);
    }
}
