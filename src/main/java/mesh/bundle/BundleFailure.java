package mesh.bundle;

/**
 * BundleFailure is why a bundle could not be pushed, listed or fetched. Its message names the
 * bundle (or the artifact store) and the reason in words an operator can act on; {@link #reason()}
 * lets callers and tests tell the cases apart without reading the words.
 */
public final class BundleFailure extends RuntimeException {

    /** Reason is the kind of failure. */
    public enum Reason {
        /** The artifact store does not answer (nothing listening, refused, timed out). */
        UNREACHABLE,
        /** The artifact store answered, but not as a registry does, or refused the request. */
        REGISTRY,
        /** No such name, tag or digest in the artifact store. */
        NOT_FOUND,
        /** What arrived is not what its digest says (a corrupted or substituted download). */
        DIGEST_MISMATCH,
        /** Fewer or more bytes arrived than the manifest says the blob holds. */
        SIZE_MISMATCH,
        /** The manifest or config is not a mesh bundle's. */
        NOT_A_BUNDLE,
        /** The layer holds an entry that may not be unpacked (a path or link leaving the bundle, ...). */
        UNSAFE_ENTRY,
        /** The bundle is larger than the limits allow (bytes or files). */
        TOO_LARGE,
        /** Bad input from the operator (a path that is not there, a reference that does not parse). */
        INPUT,
        /** The local disk: the cache or the target folder could not be written. */
        LOCAL
    }

    private final Reason reason;
    private final String detail;

    public BundleFailure(String subject, Reason reason, String detail) {
        this(subject, reason, detail, null);
    }

    public BundleFailure(String subject, Reason reason, String detail, Throwable cause) {
        super(subject + ": " + detail, cause);
        this.reason = reason;
        this.detail = detail;
    }

    /**
     * The same failure about {@code subject}: the registry edge knows only a repository name, the
     * fetch or push that called it knows the whole reference ({@code NAME@sha256:...}) to name.
     */
    BundleFailure about(String subject) {
        return getMessage().equals(subject + ": " + detail) ? this : new BundleFailure(subject, reason, detail, getCause());
    }

    /** What went wrong, without the subject (a backup names its own). */
    public String detail() {
        return detail;
    }

    public Reason reason() {
        return reason;
    }

    /** How a bundle is named at the start of a message: {@code bundle NAME@sha256:...}. */
    static String subject(Object ref) {
        return "bundle " + ref;
    }
}
