package mesh.model;

/**
 * NotFound is a request about something that does not exist (an unknown node or module). It says
 * nothing of HTTP: the API's edge ({@code mesh.api.ApiErrors}) answers it with 404.
 */
public class NotFound extends RuntimeException {
    public NotFound(String message) {
        super(message);
    }
}
