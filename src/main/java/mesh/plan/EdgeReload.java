package mesh.plan;

/**
 * EdgeReload is what the edge's keeper decides at each look (docs/edge.md): the agent reads back what
 * Caddy serves and loads the declaration's routes only when they differ, so a route change costs one
 * reload and nothing else. A configuration Caddy refused is not sent to the same container again; if
 * that Caddy lost what it served meanwhile (restarted after a kill), it gets back the last routes it
 * accepted.
 */
public final class EdgeReload {

    private EdgeReload() {
    }

    /** What to do before asking Caddy anything. */
    public enum Before {
        /** A declaration older than the newest kept (a pass that read it before a push): its routes must not come back. */
        IGNORE,
        /** The node is no edge (or has no declaration): nothing to keep, no status. */
        NO_EDGE,
        /** The edge container does not run: say so, ask nothing. */
        NOT_RUNNING,
        /** Read back what Caddy serves, then decide {@link #after}. */
        LOOK
    }

    /** What to do once Caddy's configuration is read. */
    public enum After {
        /** Caddy serves the routes wanted: note it, load nothing. */
        SERVING,
        /** Refused already by this container, and Caddy lost the last accepted routes: load those back. */
        RESTORE,
        /** Refused already by this container, and Caddy still serves the last accepted routes (or none were): nothing. */
        PASS,
        /** Load the routes wanted (one reload in place). */
        LOAD
    }

    /** {@code generation} null: no declaration yet; {@code newest}: the newest generation kept so far. */
    public static Before before(Long generation, long newest, boolean edge, boolean running) {
        if (generation != null && generation < newest) {
            return Before.IGNORE;
        }
        if (generation == null || !edge) {
            return Before.NO_EDGE;
        }
        return running ? Before.LOOK : Before.NOT_RUNNING;
    }

    /**
     * {@code servesWanted}: Caddy's configuration is the one wanted; {@code refusedHere}: the one wanted
     * was refused by this very container; {@code lastGood}: some configuration was accepted before;
     * {@code servesLastGood}: Caddy serves that one now.
     */
    public static After after(boolean servesWanted, boolean refusedHere, boolean lastGood, boolean servesLastGood) {
        if (servesWanted) {
            return After.SERVING;
        }
        if (refusedHere) {
            return lastGood && !servesLastGood ? After.RESTORE : After.PASS;
        }
        return After.LOAD;
    }
}
