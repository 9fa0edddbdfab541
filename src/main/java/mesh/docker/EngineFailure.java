package mesh.docker;

/** EngineFailure is an engine call that failed or timed out; its message names the call and the object. */
public class EngineFailure extends RuntimeException {
    public EngineFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
