package mesh.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.InvalidInput;

/**
 * ControllerSettings is the controller's configuration (environment over the config file). The
 * store URL and the operator token are required: a controller without them refuses to start.
 * {@code token} is the bootstrap operator token (named {@value OperatorTokens#BOOTSTRAP} in the
 * store, docs/trust.md). The controller keeps no agent token, so it needs no key to seal them.
 * The token comes from MESH_CONTROLLER_TOKEN or, so that it sits in no manifest, declaration or store
 * row, from the file MESH_CONTROLLER_TOKEN_FILE names (the {@code *_FILE} convention): mesh install
 * writes it there, 0600, in the seat's state folder.
 */
public record ControllerSettings(String storeUrl, String token, int pushBudget, long epoch, java.nio.file.Path secretsKeyFile) {

    /** Settings without a secrets key file: {@code mesh secret} and every manifest that uses one are refused. */
    public ControllerSettings(String storeUrl, String token, int pushBudget, long epoch) {
        this(storeUrl, token, pushBudget, epoch, null);
    }

    public static final int DEFAULT_PUSH_BUDGET = 10;

    public static ControllerSettings read(Map<String, String> vars) {
        List<String> problems = new ArrayList<>();
        String url = vars.get("MESH_STORE_URL");
        if (url == null || !url.startsWith("jdbc:postgresql:")) {
            problems.add("MESH_STORE_URL must be a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DB), got "
                    + (url == null ? "nothing" : "'" + url + "'"));
        }
        String token = vars.get("MESH_CONTROLLER_TOKEN");
        String tokenFile = vars.get("MESH_CONTROLLER_TOKEN_FILE");
        if (token != null && !token.isBlank() && tokenFile != null && !tokenFile.isBlank()) {
            problems.add("MESH_CONTROLLER_TOKEN and MESH_CONTROLLER_TOKEN_FILE are both set: give one (the file keeps the "
                    + "token out of every manifest and declaration)");
        } else if (tokenFile != null && !tokenFile.isBlank()) {
            token = readTokenFile(tokenFile, problems);
        } else if (token == null || token.isBlank()) {
            problems.add("MESH_CONTROLLER_TOKEN is not set (nor MESH_CONTROLLER_TOKEN_FILE): the controller refuses to serve "
                    + "without a token");
        }
        int budget = DEFAULT_PUSH_BUDGET;
        try {
            budget = Integer.parseInt(vars.getOrDefault("MESH_PUSH_BUDGET", Integer.toString(DEFAULT_PUSH_BUDGET)));
        } catch (NumberFormatException e) {
            problems.add("MESH_PUSH_BUDGET must be a whole number of containers");
        }
        long epoch = 0;
        try {
            epoch = Long.parseLong(vars.getOrDefault("MESH_CONTROLLER_EPOCH", "0"));
        } catch (NumberFormatException e) {
            problems.add("MESH_CONTROLLER_EPOCH must be a whole number");
        }
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        String keyFile = vars.get("MESH_SECRETS_KEY_FILE");
        return new ControllerSettings(url, token, budget, epoch,
                keyFile == null || keyFile.isBlank() ? null : java.nio.file.Path.of(keyFile));
    }

    /** The token in the file MESH_CONTROLLER_TOKEN_FILE names (its first line), or null with the problem said. */
    private static String readTokenFile(String file, List<String> problems) {
        try {
            String token = java.nio.file.Files.readString(java.nio.file.Path.of(file)).strip();
            if (token.isEmpty() || token.contains("\n")) {
                problems.add("MESH_CONTROLLER_TOKEN_FILE " + file + " must hold the token alone, on one line");
                return null;
            }
            return token;
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            problems.add("MESH_CONTROLLER_TOKEN_FILE " + file + " cannot be read: " + (e instanceof java.nio.file.NoSuchFileException
                    ? "no such file" : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage()));
            return null;
        }
    }
}
