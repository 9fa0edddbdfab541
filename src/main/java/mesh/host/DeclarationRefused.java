package mesh.host;

/**
 * DeclarationRefused is a declaration this host will not take: nothing was recorded, nothing on the
 * engine was touched. The API answers {@link Reason#OTHER_NODE} with 400 and {@link Reason#NOT_NEWER}
 * with 409; {@code mesh host apply} says the same message and exits 1.
 */
public final class DeclarationRefused extends HostFailure {

    /** Why: it names another node, or its generation is not newer than the newest record. */
    public enum Reason { OTHER_NODE, NOT_NEWER, MISSING_SECRET }

    private final Reason reason;

    DeclarationRefused(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
