package mesh.host;

/**
 * HostFailure is a host use case that could not be carried out, with a message meant for the
 * operator as it is; the edge that called it (the API or a CLI verb) says it in its own way.
 */
public class HostFailure extends RuntimeException {
    public HostFailure(String message) {
        super(message);
    }

    public HostFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
