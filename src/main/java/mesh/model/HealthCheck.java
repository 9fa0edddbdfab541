package mesh.model;

import java.util.List;

/**
 * HealthCheck says how the agent tells a component is ready: an HTTP GET on the container's
 * address answering 2xx or 3xx, or a command run inside the container exiting 0.
 *
 * @param http           the path to GET, with {@code port}
 * @param port           the container port for {@code http}
 * @param command        a command to exec in the container instead
 * @param timeoutSeconds how long to wait for ready before the component counts as failed
 */
public record HealthCheck(String http, Integer port, List<String> command, Integer timeoutSeconds) {

    public static final int DEFAULT_TIMEOUT_SECONDS = 60;

    public HealthCheck {
        command = command == null ? null : List.copyOf(command);
    }

    public int timeout() {
        return timeoutSeconds == null ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }
}
