package mesh.install;

/** InstallFailure is a step that could not be done, in the operator's words; the step is not recorded as done. */
public class InstallFailure extends RuntimeException {
    public InstallFailure(String message) {
        super(message);
    }

    public InstallFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
