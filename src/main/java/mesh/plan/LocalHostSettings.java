package mesh.plan;

import java.util.HashMap;
import java.util.Map;

/**
 * LocalHostSettings decides, purely, which settings the local host verbs ({@code mesh host apply},
 * {@code mesh host history}, {@code mesh host logs}) read, so that on a node {@code mesh install} made they look where its agent
 * keeps its state: the agent's settings file ({@code <config-dir>/host.env}, default
 * {@code /etc/mesh/host.env}) when it exists, the {@code MESH_HOST_*} environment winning over it,
 * today's defaults when neither is there. A file asked for by name ({@code --config FILE} or
 * {@code --config-dir DIR}) that does not exist is a problem, not a silent fallback. It also says
 * where the state dir came from, so a verb that finds nothing can name where it looked.
 *
 * @param vars         the merged settings (the environment over the file)
 * @param stateDirFrom where MESH_HOST_STATE_DIR came from, in words
 * @param problem      why the settings cannot be had, or null
 */
public record LocalHostSettings(Map<String, String> vars, String stateDirFrom, String problem) {

    public static final String STATE_DIR = "MESH_HOST_STATE_DIR";

    /**
     * @param env      the process environment
     * @param file     the settings file looked at (given, or the default config dir's {@code host.env})
     * @param fileVars its {@code KEY=VALUE} lines, or null when it does not exist
     * @param asked    whether the operator named the file or its folder (then it must exist)
     */
    public static LocalHostSettings resolve(Map<String, String> env, String file, Map<String, String> fileVars, boolean asked) {
        if (fileVars == null && asked) {
            return new LocalHostSettings(Map.of(), null, file + " does not exist: 'mesh install' writes the agent's settings"
                    + " there (--config-dir is the folder install was given, default " + AgentUnit.DEFAULT_CONFIG_DIR + ")");
        }
        Map<String, String> vars = new HashMap<>(fileVars == null ? Map.of() : fileVars);
        vars.putAll(env);
        String from;
        if (env.containsKey(STATE_DIR)) {
            from = STATE_DIR + " from the environment";
        } else if (fileVars != null && fileVars.containsKey(STATE_DIR)) {
            from = STATE_DIR + " from " + file;
        } else if (fileVars != null) {
            from = "the default state dir: " + file + " sets no " + STATE_DIR;
        } else {
            from = "the default state dir: no " + file + ", no " + STATE_DIR;
        }
        return new LocalHostSettings(Map.copyOf(vars), from, null);
    }
}
