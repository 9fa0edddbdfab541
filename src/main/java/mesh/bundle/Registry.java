package mesh.bundle;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Registry is the artifact store's edge: the few calls of the OCI distribution API a bundle needs,
 * and nothing that decides. Every byte it returns is checked by its caller ({@link BundleFetch})
 * against the digest that names it; failures are {@link BundleFailure}s naming {@code subject}.
 */
public interface Registry {

    /** The registry's base URL, for messages. */
    String address();

    /** {@code GET /v2/}: does a registry answer at all? */
    void ping();

    /** {@code HEAD /v2/NAME/blobs/DIGEST}. */
    boolean hasBlob(String name, Digest digest);

    /** Uploads a blob (POST, then PUT with the digest: the monolithic upload); the registry checks the digest. */
    void pushBlob(String name, Digest digest, long size, Path file);

    /**
     * Uploads a blob read from {@code in}, exactly {@code size} bytes, streamed (never held whole): a backup's file,
     * read from its volume as it is sent.
     */
    void pushBlob(String name, Digest digest, long size, java.io.InputStream in);

    /**
     * Uploads exactly {@code size} bytes read from {@code in} whose digest is not known before: streamed (PATCH) and
     * hashed as sent, then kept under the digest they have, which is returned. A file is read once, not hashed first.
     */
    Digest pushBlobHashed(String name, long size, java.io.InputStream in);

    /** {@code DELETE /v2/NAME/manifests/DIGEST}; false when the registry does not allow deletes (405). */
    boolean deleteManifest(String name, Digest digest);

    /** Uploads a small blob held in memory (a config), like {@link #pushBlob(String, Digest, long, Path)}. */
    void pushBlob(String name, Digest digest, byte[] content);

    /** {@code PUT /v2/NAME/manifests/TAG}; returns the digest the registry computed. */
    Digest putManifest(String name, String tag, byte[] manifest);

    /** {@code GET /v2/NAME/manifests/REFERENCE}, asking for an OCI image manifest; the caller reads and closes it. */
    InputStream manifest(String name, String reference);

    /** {@code GET /v2/NAME/blobs/DIGEST}; the caller reads and closes it. */
    InputStream blob(String name, Digest digest);

    /** Every repository name ({@code GET /v2/_catalog}, following its pages). */
    List<String> repositories();

    /** A repository's tags ({@code GET /v2/NAME/tags/list}); empty when it has none. */
    List<String> tags(String name);
}
