package mesh.store;

/** StoreFailure is the store not answering or answering nonsense; the verb fails and changes nothing. */
public class StoreFailure extends RuntimeException {
    public StoreFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
