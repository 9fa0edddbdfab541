package mesh.plan;

/**
 * InstallStep is one step of {@code mesh install}, in the order they run (docs/design.md, "The
 * controller is a process, and the installer raises the artifact store before the pivot"). Each is
 * recorded in the state dir when it completes, so a rerun resumes after the last one done. A rebuild from a state
 * backup ({@code mesh install --from-backup}) runs the seat's steps with {@link #KEYS}, {@link #LOAD} and
 * {@link #ADOPT} among them (docs/rebuild.md).
 */
public enum InstallStep {
    PREFLIGHT("preflight", "check the machine: engine, ports, state dir, address"),
    AGENT("agent", "write and start the host agent"),
    STORE("store", "raise the store (mesh-store) and, beside it, the artifact store"),
    REGISTRY("registry", "check the artifact store (mesh-registry) answers"),
    BUNDLE("bundle", "publish the controller's bundle to the artifact store"),
    CONTROLLER("controller", "a temporary controller pushes the seat's declaration (the controller as a process)"),
    PIVOT("pivot", "fence the temporary controller, check the permanent one"),
    CONFIG("config", "write the operator's CLI config"),
    JOIN("join", "check that the controller sees this node"),
    KEYS("keys", "write the seat's keys back from the state backup (the same CA, secrets key, tokens)"),
    LOAD("load", "load the store's rows from the state backup; fail what was under way, list the seat's lost modules"),
    ADOPT("adopt", "check that every node's agent answers the new controller, nothing on it replaced");

    private final String word;
    private final String title;

    InstallStep(String word, String title) {
        this.word = word;
        this.title = title;
    }

    /** The step's one word, as printed and recorded. */
    public String word() {
        return word;
    }

    public String title() {
        return title;
    }

    public static InstallStep ofWord(String word) {
        for (InstallStep s : values()) {
            if (s.word.equals(word)) {
                return s;
            }
        }
        return null;
    }
}
