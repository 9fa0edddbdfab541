package mesh.wire;

/**
 * SecretValue is the body of {@code PUT /v1/mesh/secrets/MODULE/NAME}: the value to seal, sent over
 * HTTPS by {@code mesh secret set} (read from its stdin or a file, never its command line).
 */
public record SecretValue(String value) {

    @Override
    public String toString() {
        return "SecretValue[value=(hidden)]";
    }
}
