package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import mesh.model.Manifest;
import mesh.model.SecretNames;

/**
 * SecretRules are the pure checks of {@code mesh secret}: what a value may be, and which components
 * use a secret (a secret in use cannot be removed). Each answer names what was wrong.
 */
public final class SecretRules {

    /** The largest value taken: environment variables are not meant for more. */
    public static final int MAX_VALUE_BYTES = 64 * 1024;

    private SecretRules() {
    }

    /** The problems of setting {@code value} as secret {@code name} of {@code module}; empty when none. */
    public static List<String> setProblems(String module, String name, String value, boolean moduleKnown) {
        List<String> problems = new ArrayList<>();
        String nameProblem = SecretNames.problem(name);
        if (nameProblem != null) {
            problems.add(nameProblem);
        }
        if (!moduleKnown) {
            problems.add("module " + module + " is not in the catalogue ('mesh catalogue add' it first)");
        }
        if (value == null || value.isEmpty()) {
            problems.add("the value is empty: give it on stdin or with --from-file");
        } else if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_VALUE_BYTES) {
            problems.add("the value is larger than " + MAX_VALUE_BYTES / 1024 + " KiB");
        } else if (value.indexOf('\0') >= 0) {
            problems.add("the value holds a NUL character, which no environment variable can");
        }
        return problems;
    }

    /** Each use of secret {@code name} in {@code m}: {@code component web.api (env DB_PASSWORD)}. */
    public static List<String> uses(Manifest m, String name) {
        List<String> uses = new ArrayList<>();
        if (m == null) {
            return uses;
        }
        m.components().forEach((component, c) -> c.secrets().forEach((variable, secret) -> {
            if (secret.equals(name)) {
                uses.add("component " + component + " (env " + variable + ")");
            }
        }));
        return uses;
    }
}
