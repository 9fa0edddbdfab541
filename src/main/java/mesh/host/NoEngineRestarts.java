package mesh.host;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * NoEngineRestarts, once in the agent's life (at its first pass the engine answers), sets the restart policy {@code no}
 * on the node's containers that an older build made with {@code unless-stopped}: an engine that starts again must start
 * nothing of the mesh's by itself, or a module restored elsewhere while the node was down runs twice until the
 * controller's fence reaches it (docs/backup.md, "A moved copy never starts again"). The agent starts what ended
 * ({@link ContainerRestarts}). Containers made by this build already have {@code no}: then it writes nothing.
 */
final class NoEngineRestarts implements PassStep {

    private final Supplier<List<String>> stop;
    private final Consumer<String> log;
    private volatile boolean done;

    /** {@code stop}: the engine call that sets the policy where it is another, returning the containers it changed. */
    NoEngineRestarts(Supplier<List<String>> stop, Consumer<String> log) {
        this.stop = stop;
        this.log = log;
    }

    @Override
    public void run(Context pass) {
        if (done) {
            return;
        }
        List<String> changed = stop.get();
        if (!changed.isEmpty()) {
            log.accept("restart policy set to no on " + String.join(", ", changed)
                    + ": the agent starts them again when they end, never the engine");
        }
        done = true;
    }
}
