package mesh.api;

/**
 * MetricsSource is what a server serves at {@code /metrics}: the host agent's and the controller's each
 * write what they hold, read at the scrape and kept nowhere else ({@link MetricsResource}). The one whose
 * process this is serves; the other says it does not.
 */
public interface MetricsSource {

    /** Whether this process runs this source's server (and has started). */
    boolean serves();

    /** Writes this server's metrics as of now. */
    void write(PromText out);
}
