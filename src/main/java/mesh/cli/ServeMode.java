package mesh.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import mesh.api.ServerRole;

/**
 * ServeMode tells from the raw arguments whether this run is a server, and which Quarkus HTTP
 * properties that implies. It runs before Quarkus boots, so it cannot use picocli or CDI; it only
 * recognises the serve verbs' exact positions and leaves everything else to picocli.
 */
public enum ServeMode {
    NONE(null, null),
    HOST("MESH_HOST_LISTEN", "0.0.0.0:7701"),
    CONTROLLER("MESH_CONTROLLER_LISTEN", "0.0.0.0:7700");

    /** The options picocli answers without running the verb. */
    private static final java.util.Set<String> HELP = java.util.Set.of("-h", "--help", "-V", "--version");

    private final String listenVariable;
    private final String defaultListen;

    ServeMode(String listenVariable, String defaultListen) {
        this.listenVariable = listenVariable;
        this.defaultListen = defaultListen;
    }

    /**
     * The mode these arguments ask for: NONE when they ask for help or the version ({@code mesh host serve --help}
     * prints the verb's help, with no TLS settings needed and no server started).
     */
    public static ServeMode forArgs(String... args) {
        if (Arrays.stream(args).anyMatch(HELP::contains)) {
            return NONE;
        }
        List<String> words = Arrays.stream(args).filter(a -> !a.startsWith("-")).limit(2).toList();
        if (words.equals(List.of("host", "serve"))) {
            return HOST;
        }
        if (words.equals(List.of("controller", "serve"))) {
            return CONTROLLER;
        }
        return NONE;
    }

    /** The file named by {@code --config FILE} or {@code --config=FILE}, if any. */
    public static java.nio.file.Path configFile(String... args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                return java.nio.file.Path.of(args[i + 1]);
            }
            if (args[i].startsWith("--config=")) {
                return java.nio.file.Path.of(args[i].substring("--config=".length()));
            }
        }
        return null;
    }

    /** The system properties to set before boot: listen where configured, or not at all. */
    public Map<String, String> properties(Map<String, String> env) {
        if (this == NONE) {
            return Map.of("quarkus.http.host-enabled", "false");
        }
        Listen listen = Listen.parse(env.getOrDefault(listenVariable, defaultListen), listenVariable);
        Map<String, String> props = new java.util.HashMap<>(Map.of(
                "quarkus.http.host", listen.host(), "quarkus.http.port", Integer.toString(listen.port()),
                ServerRole.PROPERTY, name()));
        // HTTPS on the listen port, or plain HTTP when MESH_PLAIN_HTTP=yes (tests only): docs/trust.md
        props.putAll(mesh.trust.ServeTls.properties(this == HOST, listen.port(), env));
        if (this == CONTROLLER) {
            // the store is the controller's alone; the datasource is configured only for it
            putIfSet(props, "quarkus.datasource.jdbc.url", env.get("MESH_STORE_URL"));
            putIfSet(props, "quarkus.datasource.username", env.get("MESH_STORE_USER"));
            putIfSet(props, "quarkus.datasource.password", storePassword(env));
            if (env.get("MESH_STORE_URL") != null && !env.get("MESH_STORE_URL").isBlank()) {
                props.put("quarkus.flyway.active", "true");
            }
        }
        return props;
    }

    /**
     * MESH_STORE_PASSWORD, or the first line of the file MESH_STORE_PASSWORD_FILE names (the {@code *_FILE}
     * convention: mesh install writes it 0600 on the seat, so the password sits in no manifest, declaration
     * or store row; docs/trust.md, "Secrets": the controller needs it before it can read any sealed secret).
     */
    static String storePassword(Map<String, String> env) {
        String file = env.get("MESH_STORE_PASSWORD_FILE");
        if (file == null || file.isBlank()) {
            return env.get("MESH_STORE_PASSWORD");
        }
        if (env.get("MESH_STORE_PASSWORD") != null && !env.get("MESH_STORE_PASSWORD").isBlank()) {
            throw new mesh.model.InvalidInput(java.util.List.of("MESH_STORE_PASSWORD and MESH_STORE_PASSWORD_FILE are both set: give one"));
        }
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(file)).strip();
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            throw new mesh.model.InvalidInput(java.util.List.of("MESH_STORE_PASSWORD_FILE " + file + " cannot be read: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage())));
        }
    }

    private static void putIfSet(Map<String, String> props, String key, String value) {
        if (value != null && !value.isBlank()) {
            props.put(key, value);
        }
    }
}
