package mesh.api;

import java.util.List;

/**
 * Refusal is a request turned down, with the HTTP status and the message the caller gets back.
 * Whatever refuses must have changed nothing. Only the host agent still throws it; the controller
 * and the store throw typed failures (mesh.model's InvalidInput, NotFound, Conflict; StoreFailure)
 * that {@link ApiErrors} alone turns into status codes, and the agent is to follow.
 */
public class Refusal extends RuntimeException {
    private final int status;
    private final List<String> problems;

    public Refusal(int status, String message) {
        this(status, message, List.of());
    }

    public Refusal(int status, String message, List<String> problems) {
        super(message);
        this.status = status;
        this.problems = List.copyOf(problems);
    }

    public int status() {
        return status;
    }

    public List<String> problems() {
        return problems;
    }
}
