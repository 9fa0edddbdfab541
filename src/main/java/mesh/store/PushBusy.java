package mesh.store;

import mesh.model.Conflict;

/** PushBusy is a push refused because another one holds the push lock ({@link PushLock}); it changed nothing. */
public final class PushBusy extends Conflict {
    PushBusy() {
        super("another push is in progress; try again when it ends");
    }
}
