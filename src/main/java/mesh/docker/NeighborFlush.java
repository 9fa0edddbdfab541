package mesh.docker;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ContainerNetwork;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * NeighborFlush forgets this network namespace's neighbour (ARP) entries of a container's addresses right after the engine
 * started it, when it publishes ports. The engine publishes a container's ports (its DNAT rules) while it still sets the
 * container's network up, so a client that connects in that moment makes the kernel ask for the container's hardware
 * address before its interface answers: the entry stays incomplete and is asked for again only after the interface's
 * {@code retrans_time} (1 s), and every connection waits until then, the container long started (0.8 s of a take's
 * downtime on the test bed's nodes, seen with {@code ip monitor neigh}: docs/benchmarks.md). Forgotten, the next packet
 * asks again and the started container answers at once. Best effort: without {@code ip}, or the right to use it (the
 * agent runs as root), nothing happens; an entry of a container that answers is only asked for again.
 * The same one-second wait after a start on a bridge network: moby/moby#16114; the engine's own unsolicited ARP after a
 * start is sent only once the bridge port forwards (moby/moby#49705), too late for a connection already waiting.
 */
final class NeighborFlush {

    private NeighborFlush() {
    }

    /** The addresses of {@code started} to forget: those of its networks, when it publishes a port (else none). */
    static List<String> addresses(InspectContainerResponse started) {
        var ports = started.getHostConfig() == null ? null : started.getHostConfig().getPortBindings();
        Map<String, ContainerNetwork> networks = started.getNetworkSettings() == null ? null
                : started.getNetworkSettings().getNetworks();
        if (ports == null || ports.getBindings().isEmpty() || networks == null) {
            return List.of();
        }
        return networks.values().stream().map(ContainerNetwork::getIpAddress).filter(a -> a != null && !a.isEmpty()).toList();
    }

    /** Runs {@code ip neigh flush to ADDRESS} for each, waiting 2 s at most for each. */
    static void forget(List<String> addresses) {
        for (String address : addresses) {
            try {
                Process p = new ProcessBuilder("ip", "neigh", "flush", "to", address).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!p.waitFor(2, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (IOException e) {
                return;   // no ip here: nothing to forget with
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
