package mesh.model;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * SecretRef is one environment variable of a component whose value is a secret of its module
 * ({@code env: {DB_PASSWORD: {secret: db-password}}}, docs/trust.md "Secrets"). The controller's
 * planner fills in the version, the keyed hash and the value; the value travels only in the
 * declaration sent to the node that runs the component, and is never kept in clear anywhere else:
 * the store keeps what it acknowledged {@link #withoutValue() without it}, the host's records keep
 * it {@code sealed} with the node's own key, and every view of a declaration shows {@link #words()}.
 *
 * @param secret  the secret's name within the component's module
 * @param version which setting of it ({@code mesh secret set} counts them), from 1
 * @param hmac    HMAC-SHA256 of the value under the mesh's digest key, hex: what the spec digest
 *                carries, so a new value replaces exactly the components that use it
 * @param value   the value; null wherever it is not needed (the store, records, views)
 * @param sealed  the value sealed with the node's key (base64), in the host's records alone
 */
public record SecretRef(String secret, Integer version, String hmac, String value, String sealed) {

    /** A reference as the manifest writes it: the name alone. */
    public static SecretRef named(String secret) {
        return new SecretRef(secret, null, null, null, null);
    }

    public SecretRef withoutValue() {
        return new SecretRef(secret, version, hmac, null, null);
    }

    public SecretRef withValue(String v) {
        return new SecretRef(secret, version, hmac, v, null);
    }

    public SecretRef withSealed(String s) {
        return new SecretRef(secret, version, hmac, null, s);
    }

    /** Whether {@code other} names the same setting of the same secret (the value aside). */
    public boolean sameSetting(SecretRef other) {
        return other != null && secret.equals(other.secret) && java.util.Objects.equals(version, other.version)
                && java.util.Objects.equals(hmac, other.hmac);
    }

    /** How every log, history and {@code -o json} view shows it: {@code (secret db-password, version 2)}. */
    @JsonIgnore
    public String words() {
        return "(secret " + secret + (version == null ? "" : ", version " + version) + ")";
    }

    /** What the spec digest carries: the name and the keyed hash, never the value nor the version. */
    @JsonIgnore
    public String digestForm() {
        return "secret " + secret + " hmac " + hmac;
    }
}
