package mesh.host.edge;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import mesh.docker.Engine;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.EdgeTable;
import mesh.model.ObservedContainer;
import mesh.plan.Cutover;
import mesh.plan.EdgeReload;
import mesh.wire.EdgeStatus;
import org.jboss.logging.Logger;

/**
 * EdgeKeeper keeps this node's edge (Caddy) serving the declaration's route table. The agent calls
 * it after each accept and each pass: it writes each route's upstream into its file in the edge container when it
 * changed ({@link UpstreamFiles}: Caddy reads it at each request, so a cutover's switch or a take's new node loads
 * nothing), reads back what Caddy runs ({@code GET /config/}) and loads the rendered table ({@code POST /load})
 * only when they differ, so a change of the routes themselves costs one reload and never a container replace, and
 * a recreated or restarted edge (empty after a kill) gets the current routes at the next pass. A configuration Caddy refuses is reported with Caddy's message;
 * Caddy keeps serving what it had, the same configuration is not sent again to the same container,
 * and a Caddy that restarted meanwhile gets back the last configuration it accepted.
 */
@ApplicationScoped
public class EdgeKeeper {

    /** REFUSE_HOOK names the agent's environment variable of the test hook (see {@link CaddyConfig#render}). */
    public static final String REFUSE_HOOK = "MESH_EDGE_TEST_REFUSE";
    private static final Logger LOG = Logger.getLogger("mesh.host.edge");

    private final Clock clock = Clock.systemUTC();
    private final String refuse = System.getenv(REFUSE_HOOK);
    private volatile EdgeStatus status;
    private volatile String address;
    private volatile String node;
    /** The configuration last refused and the container that refused it: not sent to it again. */
    private JsonNode refused;
    private String refusedBy;
    private String refusedWhy;
    /** The last configuration Caddy accepted, given back to a restarted Caddy while the newest is refused. */
    private JsonNode lastGood;
    private List<String> lastGoodNames = List.of();
    /** The newest generation kept: a pass that read an older declaration must not load its routes back. */
    private long newest;
    /** Where running cutovers sent their routes' ports, until the engine shows it ({@link Cutover#unsettled}). */
    private Map<String, Cutover.Pin> pins = Map.of();
    /** The edge containers whose Caddy refused {@code stream_close_delay} (older than 2.7): rendered without it. */
    private final Set<String> withoutStreamDelay = new HashSet<>();
    /** The edge containers that cannot hold upstream files ({@link UpstreamFiles#cannot}): their dials are literal. */
    private final Set<String> literalDials = new HashSet<>();
    /** The upstream files last written and the container they were written in. */
    private Map<String, String> written = Map.of();
    private String writtenIn;
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Points this node's edge at a cutover's new copy ({@code add}: {@link Cutover#key} to its pin) and loads it at
     * once; null once Caddy serves it, else why not (the cutover then keeps the old copy).
     */
    public synchronized String pin(Declaration d, List<ObservedContainer> observed, Engine engine,
                                   Map<String, Cutover.Pin> add) {
        Map<String, Cutover.Pin> now = new TreeMap<>(pins);
        now.putAll(add);
        pins = now;
        keep(d, observed, engine);
        EdgeStatus s = status;
        return s == null ? "this node runs no edge" : s.error() != null ? s.error()
                : s.pending().isEmpty() ? null : "the edge does not serve " + String.join(", ", s.pending()) + " yet";
    }

    /** Drops a cutover's pins ({@link Cutover#key}) and loads the routes back where they were. */
    public synchronized void unpin(Declaration d, List<ObservedContainer> observed, Engine engine, Set<String> keys) {
        Map<String, Cutover.Pin> now = new TreeMap<>(pins);
        now.keySet().removeAll(keys);
        pins = now;
        keep(d, observed, engine);
    }

    /** Brings the edge to the declaration's route table, if this node is an edge ({@link EdgeReload}). Never throws. */
    public synchronized void keep(Declaration d, List<ObservedContainer> observed, Engine engine) {
        pins = Cutover.unsettled(pins, observed);
        EdgeTable table = d == null ? null : Cutover.upstreams(d.edge(), d.address(), observed, pins);
        ObservedContainer c = table == null ? null : observed.stream()
                .filter(o -> o.name().equals(table.component()) && o.running()).findFirst().orElse(null);
        EdgeReload.Before first = EdgeReload.before(d == null ? null : d.generation(), newest, table != null, c != null);
        if (first == EdgeReload.Before.IGNORE) {
            return;
        }
        newest = d == null ? newest : d.generation();
        node = d == null ? node : d.node();
        if (first == EdgeReload.Before.NO_EDGE) {
            status = null;
            address = null;
            return;
        }
        List<String> wantedNames = table.routes().stream().map(EdgeTable.Route::name).toList();
        if (first == EdgeReload.Before.NOT_RUNNING) {
            note(new EdgeStatus(table.component(), null, table.tls(), List.of(), null, wantedNames,
                    "the edge container " + table.component() + " is not running yet", false));
            return;
        }
        EdgeStatus before = status;
        try {
            load(d, table, c, wantedNames, before, engine);
        } catch (IOException | RuntimeException e) {
            note(new EdgeStatus(table.component(), c.id(), table.tls(), before == null ? List.of() : before.routes(),
                    before == null ? null : before.loadedAt(), wantedNames,
                    "the edge's admin API did not answer: " + e.getMessage(), false));
        }
    }

    /** Reads back what the running edge container {@code c} serves and acts on {@link EdgeReload#after}. */
    private void load(Declaration d, EdgeTable table, ObservedContainer c, List<String> wantedNames, EdgeStatus before,
                      Engine engine) throws IOException {
        boolean files = !literalDials.contains(c.id()) && writeUpstreams(table, c, engine, false);
        JsonNode wanted = CaddyConfig.render(table, refuse, !withoutStreamDelay.contains(c.id()), files);
        String network = d.component(table.component()).map(ComponentSpec::network).orElse(null);
        String at = engine.address(c.id(), network);
        if (at == null) {
            throw new IOException("the edge container has no address on network " + network);
        }
        address = at;
        CaddyAdmin admin = new CaddyAdmin(at);
        JsonNode loaded = admin.config();
        boolean sameContainer = before != null && c.id().equals(before.containerId());
        switch (EdgeReload.after(CaddyConfig.same(loaded, wanted), wanted.equals(refused) && c.id().equals(refusedBy),
                lastGood != null, lastGood != null && CaddyConfig.same(loaded, lastGood))) {
            case SERVING -> {
                lastGood = wanted;
                lastGoodNames = wantedNames;
                String since = sameContainer && before.error() == null && before.loadedAt() != null ? before.loadedAt()
                        : clock.instant().toString();
                note(new EdgeStatus(table.component(), c.id(), table.tls(), wantedNames, since, List.of(), null, false));
            }
            case RESTORE -> {
                // refused already (the status says so), and Caddy lost what it served: the last routes it accepted
                if (files) {
                    writeUpstreams(table, c, engine, true);
                }
                if (admin.load(lastGood).isEmpty()) {
                    note(new EdgeStatus(table.component(), c.id(), table.tls(), lastGoodNames, clock.instant().toString(),
                            wantedNames, refusedWhy, true));
                }
            }
            case PASS -> {
                // refused already by this container: not sent again
            }
            case LOAD -> {
                if (files && !writeUpstreams(table, c, engine, true)) {
                    // a Caddy that lost its configuration may have restarted: its files are written again before it
                    // loads, or its routes get their addresses
                    files = false;
                    wanted = CaddyConfig.render(table, refuse, !withoutStreamDelay.contains(c.id()), false);
                }
                Optional<String> refusal = admin.load(wanted);
                if (refusal.isPresent() && refusal.get().contains("stream_close_delay") && withoutStreamDelay.add(c.id())) {
                    // a Caddy older than 2.7 does not know the field: its streams are cut by every change (docs/cutover.md)
                    LOG.warnf("edge %s: Caddy does not know stream_close_delay (older than 2.7): a change of its routes"
                            + " closes its WebSockets", table.component());
                    wanted = CaddyConfig.render(table, refuse, false, files);
                    refusal = admin.load(wanted);
                }
                if (refusal.isPresent()) {
                    refused = wanted;
                    refusedBy = c.id();
                    refusedWhy = "Caddy refused the routes: " + refusal.get();
                    boolean serving = lastGood != null && CaddyConfig.same(admin.config(), lastGood);
                    note(new EdgeStatus(table.component(), c.id(), table.tls(), serving ? lastGoodNames : List.of(),
                            sameContainer ? before.loadedAt() : null, wantedNames, refusedWhy, true));
                } else {
                    lastGood = wanted;
                    lastGoodNames = wantedNames;
                    note(new EdgeStatus(table.component(), c.id(), table.tls(), wantedNames, clock.instant().toString(),
                            List.of(), null, false));
                }
            }
        }
    }

    /**
     * Writes the routes' upstream files that changed ({@code all}: every one) into the edge container {@code c}; false
     * when they are not there to be read, so this pass renders literal dials: for good when the container cannot hold
     * them (logged once), for this pass when the write failed (the next pass tries again).
     */
    private boolean writeUpstreams(EdgeTable table, ObservedContainer c, Engine engine, boolean all) {
        Map<String, String> wanted = UpstreamFiles.wanted(table);
        Map<String, String> held = all || !c.id().equals(writtenIn) ? Map.of() : written;
        Map<String, String> send = UpstreamFiles.changed(held, wanted);
        if (send.isEmpty()) {
            return true;
        }
        int exit;
        try {
            exit = engine.exec(c.id(), UpstreamFiles.command(send), WRITE_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warnf("edge %s: could not write its routes' upstreams (%s); this pass loads them as addresses",
                    table.component(), e.getMessage());
            return false;
        }
        String cannot = UpstreamFiles.cannot(exit);
        if (cannot != null) {
            literalDials.add(c.id());
            LOG.warnf("edge %s: its container cannot hold the routes' upstream files (%s): each change of an upstream"
                    + " is a load of Caddy's configuration", table.component(), cannot);
            return false;
        }
        if (exit != 0) {
            LOG.warnf("edge %s: writing its routes' upstreams exited %d; this pass loads them as addresses",
                    table.component(), exit);
            return false;
        }
        Map<String, String> now = new TreeMap<>(held);
        now.putAll(send);
        written = now;
        writtenIn = c.id();
        return true;
    }

    /** The edge's status, or null when this node is no edge. */
    public EdgeStatus status() {
        return status;
    }

    /** This node's name, as its newest declaration says; null before any. */
    public String node() {
        return node;
    }

    /** The root certificate of the edge's internal CA, for clients of a test bed or private mesh. */
    public String caRoot() throws IOException {
        String at = address;
        if (at == null) {
            throw new IOException("this node runs no edge, or its edge has not answered yet");
        }
        return new CaddyAdmin(at).caRoot();
    }

    /** Logs a change of the edge's standing, not every pass. */
    private void note(EdgeStatus now) {
        EdgeStatus was = status;
        status = now;
        if (now.error() != null && (was == null || !now.error().equals(was.error()))) {
            LOG.warnf("edge %s: %s", now.component(), now.error());
        } else if (now.error() == null && (was == null || was.error() != null || !now.routes().equals(was.routes())
                || !now.loadedAt().equals(was.loadedAt()))) {
            LOG.infof("edge %s serves %d route(s): %s", now.component(), now.routes().size(), String.join(", ", now.routes()));
        }
    }
}
