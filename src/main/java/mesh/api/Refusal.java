package mesh.api;

import java.util.List;
import mesh.wire.Reason;

/**
 * Refusal is a request turned down, with the HTTP status and the message the caller gets back.
 * Whatever refuses must have changed nothing. Only the host agent still throws it; the controller
 * and the store throw typed failures (mesh.model's InvalidInput, NotFound, Conflict; StoreFailure)
 * that {@link ApiErrors} alone turns into status codes, and the agent is to follow.
 */
public class Refusal extends RuntimeException {
    private final int status;
    private final List<String> problems;
    private final Reason reason;

    public Refusal(int status, String message) {
        this(status, Reason.of(status), message);
    }

    public Refusal(int status, Reason reason, String message) {
        this(status, reason, message, List.of());
    }

    public Refusal(int status, String message, List<String> problems) {
        this(status, Reason.of(status), message, problems);
    }

    public Refusal(int status, Reason reason, String message, List<String> problems) {
        super(message);
        this.status = status;
        this.reason = reason;
        this.problems = List.copyOf(problems);
    }

    public Reason reason() {
        return reason;
    }

    public int status() {
        return status;
    }

    public List<String> problems() {
        return problems;
    }
}
