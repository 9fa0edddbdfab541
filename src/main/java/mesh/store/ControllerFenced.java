package mesh.store;

import mesh.model.Conflict;

/**
 * ControllerFenced is a write refused because a newer controller has claimed the store (its epoch is
 * higher, V2__controller_epoch.sql): this controller refuses every write from then on.
 */
public final class ControllerFenced extends Conflict {
    ControllerFenced(String message) {
        super(message);
    }
}
