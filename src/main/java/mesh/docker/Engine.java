package mesh.docker;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import mesh.model.ContainerRequest;
import mesh.model.ObservedContainer;

/**
 * Engine is the node's container engine as the host agent needs it, and nothing more. Every call
 * is bounded in time; every write call is counted, so "a no-op pass writes nothing" is checkable.
 */
public interface Engine extends AutoCloseable {

    /** The containers that carry this node's label, running or not. */
    List<ObservedContainer> list(String node);

    /**
     * Creates the bridge network if no network has exactly that name (a network whose id it prefixes is not it), on {@code subnet} with its first address as gateway (null:
     * from the engine's default pools); returns whether it had to. An existing network is left as it is.
     */
    boolean ensureNetwork(String network, Map<String, String> labels, mesh.model.Cidr subnet);

    /** Every network of the engine, the mesh's or not: name → its IPv4 subnets (what a new subnet must not overlap). */
    Map<String, List<mesh.model.Cidr>> networkSubnets();

    /** The networks that carry this node's label: network name → the module label it was created with. */
    Map<String, String> networks(String node);

    /**
     * Removes a network the mesh made, by its exact name (only one nothing is attached to: the engine refuses
     * otherwise); one that is gone is not looked for by a prefix of another's id.
     */
    void removeNetwork(String network);

    /** Creates the named volume if missing; never deletes or changes an existing one. */
    boolean ensureVolume(String volume, Map<String, String> labels);

    /** Creates (not starts) exactly the container the request describes; returns its id. */
    String create(ContainerRequest request);

    /**
     * Starts a created container; {@code publishes}: whether it publishes ports (its create request's), the only
     * containers whose addresses' ARP entries the start forgets ({@code NeighborFlush}), so a start without ports pays
     * for no inspect.
     */
    void start(String id, boolean publishes);

    /** SIGTERM, then SIGKILL after the grace period (null: the container's own stop timeout). */
    void stop(String id, Duration grace);

    /** Removes a stopped container, never its volumes. */
    void remove(String id);

    /** Renames a container (a cutover's new copy takes its component's name once the old copy is removed). */
    void rename(String id, String name);

    /** The container's address on a network, for HTTP health checks; null if it has none. */
    String address(String id, String network);

    /** Runs a command in the container; its exit code (a health check's answer). */
    int exec(String id, List<String> command, Duration timeout);

    /** Whether the container's process is running now. */
    boolean running(String id);

    /** VolumeInfo is an engine volume as a take needs it: where its data lies on this machine, and its labels. */
    record VolumeInfo(String name, String mountpoint, Map<String, String> labels) {
    }

    /** The named volume, if the engine has it. */
    java.util.Optional<VolumeInfo> inspectVolume(String volume);

    /** Creates the named volume with these labels (a take's copy; an apply uses {@link #ensureVolume}). */
    void createVolume(String volume, Map<String, String> labels);

    /** Deletes the named volume: only {@code mesh uninstall --delete-data} and a take's rollback or forget-old do. */
    void removeVolume(String volume);

    /**
     * Sets the restart policy {@code no} on every container of the node that has another, so the engine never starts one
     * by itself (the agent does); returns the names of those it changed.
     */
    List<String> stopEngineRestarts(String node);

    /** Whether the engine holds this image (a take's preflight asks before it fences anything). */
    boolean hasImage(String image);

    /** Pulls the image onto the engine; fails saying why when it cannot (a take's preflight fetches what is missing). */
    void fetchImage(String image);

    /** The engine's data root (where its volumes lie), for the free space a take's copy needs. */
    String dataRoot();

    /**
     * What the engine says of the container beyond running (restart count, last exit code, start time),
     * without its health check's answer; null when the container is gone.
     */
    mesh.model.Vitals vitals(String id);

    /**
     * LogSink takes a container's output as the engine sends it, a frame at a time. {@link #frame} may wait:
     * while it does, the engine's socket is not read, so a slow reader of the logs slows the engine's sending
     * (back-pressure) instead of filling memory. {@link #ended} comes once the stream ends, or broke ({@code
     * failure} not null).
     */
    interface LogSink {
        void frame(boolean stderr, String text) throws InterruptedException;

        void ended(Throwable failure);
    }

    /**
     * Streams the container's output (stdout and stderr, each line with the engine's time) to {@code sink}: from
     * {@code since} (null: all it keeps), its last {@code tail} lines (null: all), and with {@code follow} on
     * until the container stops. Closing the answer stops the stream (the engine's connection is closed).
     */
    default java.io.Closeable logs(String id, java.time.Instant since, Integer tail, boolean follow, LogSink sink) {
        throw new UnsupportedOperationException("this engine does not stream logs");
    }

    /**
     * Write calls made so far (create, start, stop, remove, network and volume creation). An exec is a
     * health check, which changes nothing the mesh owns: not counted, so a pass that only looks writes nothing.
     */
    long writes();

    @Override
    void close();
}
