package mesh.wire;

/**
 * CallFailure is every failed call of the mesh's own APIs, whichever client made it (the controller asking an agent,
 * the installer asking a controller or joining a mesh, the CLI asking the controller): its {@link Kind}, the HTTP
 * status, the server's {@link Reason} when its answer carried one, and the words the operator reads. Callers branch on
 * the kind, the status and the reason, never on the words; each client words its own failures (naming the node or the
 * controller it asked), so what an operator reads stays that client's. It is the one failure type of the clients:
 * {@code ClientFailuresTest} fails on a client's own.
 */
public final class CallFailure extends RuntimeException {

    /** Kind is what went wrong with the call. */
    public enum Kind {
        /** No answer: the server could not be reached, timed out, broke off or went silent, or the call was interrupted. */
        UNREACHABLE,
        /** The server answered with a refusal (not 2xx): its status, and its reason when it gave one. */
        REFUSED,
        /** The server said yes with an answer that is not what was asked for. */
        UNREADABLE
    }

    private final Kind kind;
    private final int status;
    private final Reason reason;

    /** {@code status}: the answer's, 0 when there was none; {@code reason}: the server's, null when it gave none. */
    public CallFailure(Kind kind, int status, Reason reason, String words, Throwable cause) {
        super(words, cause);
        this.kind = kind;
        this.status = status;
        this.reason = reason;
    }

    /** No answer, in {@code words}. */
    public static CallFailure unreachable(String words) {
        return new CallFailure(Kind.UNREACHABLE, 0, null, words, null);
    }

    /** No answer, in {@code words}, because of {@code cause}. */
    public static CallFailure unreachable(String words, Throwable cause) {
        return new CallFailure(Kind.UNREACHABLE, 0, null, words, cause);
    }

    /** A refusal with {@code status} and the server's {@code reason} (null: it gave none). */
    public static CallFailure refused(int status, Reason reason, String words) {
        return new CallFailure(Kind.REFUSED, status, reason, words, null);
    }

    /** An answer with {@code status} that could not be read as what was asked for. */
    public static CallFailure unreadable(int status, String words) {
        return new CallFailure(Kind.UNREADABLE, status, null, words, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The answer's HTTP status; 0 when there was no answer. */
    public int status() {
        return status;
    }

    /** The server's reason; null when it did not answer, or answered without one (a server older than reasons). */
    public Reason reason() {
        return reason;
    }

    /** Whether the server answered with a refusal. */
    public boolean refused() {
        return kind == Kind.REFUSED;
    }

    /** Whether the server refused with {@code status}. */
    public boolean refused(int status) {
        return kind == Kind.REFUSED && this.status == status;
    }

    /** The server has no such call: an older server, from before the call was made. */
    public boolean noSuchCall() {
        return kind == Kind.REFUSED && (status == 404 || status == 405)
                && (reason == null || reason == Reason.NO_SUCH_CALL || reason == Reason.OTHER);
    }

    /** The same failure (kind, status, reason) in other words: a caller that adds what it was doing. */
    public CallFailure reworded(String words) {
        return new CallFailure(kind, status, reason, words, this);
    }
}
