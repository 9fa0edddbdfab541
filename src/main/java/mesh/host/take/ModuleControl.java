package mesh.host.take;

import java.util.List;

/**
 * ModuleControl is what a take needs of the agent that runs this node's components: stopping every
 * component of a module (on the agent's loop, so no pass is half-way through starting one) and whether
 * any of them runs now. The host agent implements it.
 */
public interface ModuleControl {

    /** Stops every container and process of the module here with its stop timeout; the names of those stopped. */
    List<String> stopModule(String module);

    /**
     * Removes the module's stopped containers here (never their volumes), so its volume can be deleted: the
     * engine refuses to delete a volume any container still mounts, stopped or not. Returns their names.
     */
    List<String> removeStoppedContainers(String module);

    /** Whether any container or process of the module runs here now (asked of the engine, not remembered). */
    boolean moduleRuns(String module);
}
