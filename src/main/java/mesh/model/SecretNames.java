package mesh.model;

/**
 * SecretNames is the rule for a secret's name, the same everywhere it is written (a manifest's
 * {@code {secret: NAME}}, {@code mesh secret set MODULE NAME}): lower-case letters, digits and
 * {@code -}, starting with a letter or digit, at most {@value #MAX} characters.
 */
public final class SecretNames {

    public static final int MAX = 63;
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]*");

    private SecretNames() {
    }

    /** Why {@code name} is not a secret's name, or null when it is one. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "a secret's name is required";
        }
        if (name.length() > MAX || !NAME.matcher(name).matches()) {
            return "'" + name + "' is not a secret's name: lower-case letters, digits and '-', at most " + MAX;
        }
        return null;
    }
}
