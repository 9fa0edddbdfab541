package mesh.wire;

import java.util.List;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;
import mesh.model.OperationState;

/**
 * DrainView is a drain as {@code mesh drain} and {@code mesh drain --status} show it ({@code /v1/mesh/drains}): the node,
 * the {@code --to} nodes asked, K, the deadline (an instant, null: none), its step and state, whether a runner carries
 * it out now, each module with what became of it, and why the drain failed ({@code error}) or its step's last try did
 * not go through ({@code problem}).
 */
public record DrainView(long id, String node, List<String> targets, int parallel, String deadline, DrainStep step,
                        OperationState state, boolean active, List<Module> modules, String error, String problem) {

    public DrainView {
        targets = targets == null ? List.of() : List.copyOf(targets);
        modules = modules == null ? List.of() : List.copyOf(modules);
    }

    /** One module: what became of it, where it goes, why it did not move, and how long it was down when it moved (ms). */
    public record Module(String module, DrainModuleState state, String target, String reason, Long downtimeMs) {
    }
}
