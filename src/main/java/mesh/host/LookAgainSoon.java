package mesh.host;

import java.util.function.Supplier;
import mesh.model.ComponentState;
import mesh.wire.HostStatus;

/**
 * LookAgainSoon asks the loop for a look again soon ({@link HostLoop#lookAgainSoon}) while a component is
 * starting (up for an instant, or its health check not passing yet), as the status now judges it.
 */
final class LookAgainSoon implements PassStep {

    private final Supplier<HostStatus> status;
    private final Runnable soon;

    LookAgainSoon(Supplier<HostStatus> status, Runnable soon) {
        this.status = status;
        this.soon = soon;
    }

    @Override
    public void run(Context pass) {
        if (status.get().components().stream().anyMatch(c -> c.state() == ComponentState.STARTING)) {
            soon.run();
        }
    }
}
