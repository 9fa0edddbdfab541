package mesh.host.take;

/**
 * TakeRefused is a take call this node turns down, with the HTTP status it answers (400 bad input, 404
 * nothing there, 409 the state forbids it) and a message that names the module or volume. A refusal
 * changes nothing.
 */
public final class TakeRefused extends RuntimeException {

    private final int status;

    public TakeRefused(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static TakeRefused conflict(String message) {
        return new TakeRefused(409, message);
    }

    public static TakeRefused bad(String message) {
        return new TakeRefused(400, message);
    }
}
