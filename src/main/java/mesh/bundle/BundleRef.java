package mesh.bundle;

import java.util.regex.Pattern;

/**
 * BundleRef names a bundle in the artifact store: {@code NAME[:TAG]} (what an operator pushes and
 * may resolve) or {@code NAME@sha256:<hex>} (what is fetched: one content, checked byte by byte).
 * Names and tags follow the OCI distribution spec's grammar, so the registry never has to refuse them.
 */
public record BundleRef(String name, String tag, Digest digest) {

    /** The OCI distribution spec's repository name: lowercase path components separated by '/'. */
    static final Pattern NAME = Pattern.compile("[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*)*");
    static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
    static final String DEFAULT_TAG = "latest";

    /**
     * Parses {@code NAME}, {@code NAME:TAG}, {@code NAME@sha256:HEX} or {@code NAME:TAG@sha256:HEX};
     * a missing tag is {@code latest} unless a digest is given.
     *
     * @throws IllegalArgumentException with a message that says what is wrong and what is expected
     */
    public static BundleRef parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a bundle reference is empty; expected NAME[:TAG] or NAME@sha256:<64 hex>");
        }
        String rest = text;
        Digest digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = Digest.parse(rest.substring(at + 1));
            if (digest == null) {
                throw new IllegalArgumentException("'" + text + "': the part after @ must be sha256:<64 lowercase hex>");
            }
            rest = rest.substring(0, at);
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon >= 0) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
            if (!TAG.matcher(tag).matches()) {
                throw new IllegalArgumentException("'" + text + "': tag '" + tag
                        + "' must be letters, digits, '_', '.' or '-' (at most 128, not starting with '.' or '-')");
            }
        }
        if (!NAME.matcher(rest).matches() || rest.length() > 255) {
            throw new IllegalArgumentException("'" + text + "': name '" + rest
                    + "' must be lowercase letters and digits, separated by '.', '_', '-' or '/'");
        }
        return new BundleRef(rest, tag == null && digest == null ? DEFAULT_TAG : tag, digest);
    }

    public boolean pinned() {
        return digest != null;
    }

    public BundleRef pinnedTo(Digest d) {
        return new BundleRef(name, tag, d);
    }

    /** What the registry is asked for: the digest when there is one, the tag otherwise. */
    String reference() {
        return digest != null ? digest.toString() : tag;
    }

    /** {@code NAME@sha256:HEX} when pinned (the form that is fetched), else {@code NAME:TAG}. */
    @Override
    public String toString() {
        return digest != null ? name + "@" + digest : name + ":" + tag;
    }
}
