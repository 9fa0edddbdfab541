package mesh.host.take;

import java.util.List;
import mesh.model.Declaration;

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

    /**
     * This node's accepted declaration (the newest recorded, what its passes apply), or null before the first: whether
     * it runs a module decides if the rollback's delete may lift that module's created fence ({@link TakeRules#delete}).
     */
    Declaration declaration();

    /**
     * Creates, never starts, the module's containers as {@code declaration} has them (its processes: nothing), with their
     * networks; a container of the same name and spec already here is kept, one of another spec (stopped) replaced.
     * Nothing is created unless every engine volume they mount is here (a take's copy made it): no volume is made by
     * this. Returns the names of those created. Called under the module's fence only.
     */
    default List<String> createStopped(String module, Declaration declaration) {
        return List.of();
    }

    /** A fence of the module was lifted here: a pass now starts what the declaration has of it, or removes the rest. */
    default void lifted(String module) {
    }
}
