package mesh.cli;

/** VerbFailure is a failure the operator can act on; its message is printed as is, exit code 1. */
public class VerbFailure extends RuntimeException {
    public VerbFailure(String message) {
        super(message);
    }

    public VerbFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
