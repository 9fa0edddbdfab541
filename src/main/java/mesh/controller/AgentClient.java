package mesh.controller;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import mesh.model.Declaration;
import mesh.client.AgentApi;
import mesh.client.HttpTransport;
import mesh.model.Node;
import mesh.plan.PushDecision;
import mesh.plan.SeatEpoch;
import mesh.trust.ServerTrust;
import mesh.wire.Accepted;
import mesh.wire.ApiError;
import mesh.wire.CallFailure;
import mesh.wire.JsonHttp;
import mesh.wire.HostStatus;
import mesh.wire.PlanView;
import org.jboss.logging.Logger;

/**
 * AgentClient is the controller's one connection to the host agents, made once and injected wherever the
 * controller asks an agent: the controller's client certificate (mutual TLS, renewed with a rotation), one
 * pool of connections, and the agent's calls ({@link AgentApi}), each bounded; an agent that does not answer
 * is a {@link CallFailure}, not a hang. The installer makes its own, with its own TLS.
 */
@jakarta.enterprise.context.ApplicationScoped
public class AgentClient {

    private static final Logger LOG = Logger.getLogger("mesh.controller");

    static final Duration CONNECT = Duration.ofSeconds(3);
    static final Duration REQUEST = Duration.ofSeconds(30);
    /** How long a question asked in passing (not a push) may take, connecting included. */
    static final Duration QUICK = Duration.ofSeconds(2);
    /** How long {@code mesh status --refresh} waits for an agent's fresh look (its pass may be applying). */
    static final Duration REFRESH = Duration.ofSeconds(12);
    /** How long an agent that says it is starting (503, e.g. just restarted by systemd) is waited for. */
    static final Duration STARTING = Duration.ofSeconds(15);

    /** Made on first use: a verb that never pushes (all but the controller's) never builds an HTTP client. */
    private volatile HttpTransport http;
    /** The {@link ServerTrust#generation()} of the certificate {@link #http} presents. */
    private volatile long builtFor;
    /** The TLS this client speaks to agents with, or null for the serving process's ({@link ServerTrust}). */
    private final javax.net.ssl.SSLContext tls;

    /** The controller epoch and seat this client names on every call ({@link SeatEpoch}); none until the controller claims one. */
    private volatile SeatEpoch speaksAs = SeatEpoch.NONE;
    /** Why an agent refused this controller as deposed by a newer seat, once one did; null until then. */
    private volatile String deposed;

    /** A client with the serving controller's TLS (its certificate, the mesh CA only), or plain HTTP without. */
    public AgentClient() {
        this(null);
    }

    /** A client with {@code tls}: the installer's, with the controller's certificate or none (docs/trust.md). */
    public AgentClient(javax.net.ssl.SSLContext tls) {
        this.tls = tls;
    }

    /** Names {@code epoch} (this controller's, claimed in the store) on every call from now on: agents keep the newest. */
    public void speakAs(SeatEpoch epoch) {
        this.speaksAs = epoch;
    }

    /**
     * Why this controller was deposed, as an agent said when it refused a change from it ({@link mesh.wire.Reason#DEPOSED}),
     * or null: a promoted seat reached that agent first. From then on the controller's API says so to every verb.
     */
    public String deposed() {
        return deposed;
    }

    /** Hears the newest seat an agent knows of: a newer one than this controller's deposes it ({@link #deposed}). */
    private void heard(Node node, SeatEpoch newest) {
        String refusal = newest.refusal(speaksAs);
        if (refusal != null && deposed == null) {
            deposed = "node " + node.name() + "'s agent says: " + refusal;
            LOG.errorf("this controller has been deposed: %s", deposed);
        }
    }

    /** The one transport to the agents, with this client's certificate (a new one after a rotation). */
    HttpTransport http() {
        HttpTransport h = http;
        if (h == null || tls == null && builtFor != ServerTrust.generation()) {
            synchronized (this) {
                long generation = ServerTrust.generation();
                if (http == null || tls == null && builtFor != generation) {
                    // the controller's key and the mesh CA, read from the files: after a rotation
                    // (a new generation) a new client, so its pooled connections with the old certificate go too
                    HttpTransport old = http;
                    http = new HttpTransport(tls != null ? tls : ServerTrust.enabled() ? ServerTrust.clientContext() : null,
                            CONNECT);
                    builtFor = generation;
                    if (old != null) {
                        old.shutdown();   // calls under way finish; it takes no new ones (JDK 21)
                    }
                }
                h = http;
            }
        }
        return h;
    }

    public PlanView preview(Node node, Declaration d) {
        return call(node, AgentApi.preview(d), REQUEST, STARTING);
    }

    public Accepted push(Node node, Declaration d) {
        return call(node, AgentApi.push(d), REQUEST, STARTING);
    }

    /**
     * Pushes a declaration. An agent that refuses it as not newer (409) has accepted one the store
     * does not know of (a push whose record was lost, a store restored from a backup); generations
     * only grow, so it gets the same content again, numbered after its newest
     * ({@link PushDecision#resend}); the agent's records keep what it had.
     */
    public Accepted pushGrowing(Node node, Declaration d) {
        try {
            return push(node, d);
        } catch (CallFailure refused) {
            if (!refused.refused(409) || refused.reason() == mesh.wire.Reason.DEPOSED) {
                throw refused;
            }
            long newest;
            try {
                newest = status(node).generation();
            } catch (CallFailure unread) {
                throw refused.reworded(refused.getMessage() + "; and its generation could not be read: " + unread.getMessage());
            }
            Declaration again = PushDecision.resend(d, newest).orElseThrow(() -> refused);
            LOG.infof("push: node %s has accepted generation %d, which this store does not know of; sending as %d",
                    node.name(), newest, again.generation());
            return push(node, again);
        }
    }

    /** The agent's status ({@code GET /v1/status}); a starting agent is waited for. */
    public HostStatus status(Node node) {
        return call(node, AgentApi.status(false), REQUEST, STARTING);
    }

    /**
     * The agent's status after it looked at its engine now ({@code GET /v1/status?refresh=true},
     * {@code mesh status --refresh}): bounded by {@link #REFRESH}; the agent waits at most
     * {@code mesh.host.HostAgent.REFRESH_WAIT} for its pass.
     */
    public HostStatus statusRefreshed(Node node) {
        return call(node, AgentApi.status(true), REFRESH, Duration.ZERO);
    }

    /** Sends the seat's keys to a standby's agent, which writes them 0600 ({@code mesh seat add}). */
    public mesh.wire.SeatKeysKept seatKeys(Node node, mesh.wire.SeatKeyFiles keys) {
        return call(node, AgentApi.seatKeys(keys), REQUEST, STARTING);
    }

    /** The epoch, seat and URL this controller names to the agents ({@link #speakAs}). */
    public SeatEpoch speaksAs() {
        return speaksAs;
    }

    /** The root certificate of the node's edge CA ({@code GET /v1/edge/ca}), asked in passing. */
    public mesh.wire.EdgeCa edgeCa(Node node) {
        return call(node, AgentApi.edgeCa(), QUICK, Duration.ZERO);
    }

    /** Whether the node's agent answers a status call within {@link #QUICK} (any failure: it does not, now). */
    public boolean answers(Node node) {
        try {
            statusQuickly(node);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The same, asked in passing: bounded by {@link #QUICK}, and a starting agent is not waited for. */
    public HostStatus statusQuickly(Node node) {
        return call(node, AgentApi.status(false), QUICK, Duration.ZERO);
    }

    /** Asks about every item at once, by its node's name ({@link #askAll}). */
    static <T, A> Map<String, AgentAnswer<A>> ask(java.util.List<T> items, Function<T, Node> node, Function<T, A> call) {
        Map<String, T> byNode = new LinkedHashMap<>();
        items.forEach(t -> byNode.put(node.apply(t).name(), t));
        return askAll(byNode, call);
    }

    /**
     * Asks every node at once, each on a virtual thread; each answer is the call's result, or the
     * failure's message ({@link AgentAnswer}). Every call is bounded, so this is too.
     */
    static <K, T> Map<String, AgentAnswer<T>> askAll(Map<String, K> byNode, Function<K, T> call) {
        Map<String, AgentAnswer<T>> answers = new LinkedHashMap<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<String, Future<T>> futures = new LinkedHashMap<>();
            byNode.forEach((node, k) -> futures.put(node, pool.submit(() -> call.apply(k))));
            futures.forEach((node, f) -> {
                try {
                    answers.put(node, AgentAnswer.of(f.get()));
                } catch (ExecutionException e) {
                    answers.put(node, AgentAnswer.failed(java.util.Objects.toString(e.getCause().getMessage(),
                            e.getCause().toString())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    answers.put(node, AgentAnswer.failed("interrupted"));
                }
            });
        }
        return answers;
    }

    /**
     * Refuses a change ({@code method} other than GET or HEAD) to {@code node}'s agent once this controller was deposed: a
     * deposed controller changes nothing, whichever of its loops or runners asks (a backup's schedule, a lost copy's
     * fence, a take it resumed), also on an agent that has not heard of the promoted seat yet (docs/seat.md).
     */
    void refuseIfDeposed(Node node, String method) {
        String why = deposed;
        if (why != null && !"GET".equals(method) && !"HEAD".equals(method)) {
            throw CallFailure.refused(409, mesh.wire.Reason.DEPOSED, "this controller was deposed by a promoted seat and"
                    + " changes nothing (its " + method + " to node " + node.name() + "'s agent not sent): " + why);
        }
    }

    /** The headers that name this controller's epoch and seat on every call to an agent (none before it claims one). */
    Map<String, String> epochHeaders() {
        Map<String, String> named = new LinkedHashMap<>();
        SeatEpoch as = speaksAs;
        if (as.epoch() > 0) {
            named.put(SeatEpoch.EPOCH_HEADER, Long.toString(as.epoch()));
            if (!as.seat().isEmpty()) {
                named.put(SeatEpoch.SEAT_HEADER, as.seat());
            }
            if (!as.url().isEmpty()) {
                named.put(SeatEpoch.URL_HEADER, as.url());
            }
        }
        return named;
    }

    /** Hears the newest seat an agent's answer names in its headers ({@link #heard}). */
    void heardIn(Node node, java.net.http.HttpHeaders answer) {
        answer.firstValue(SeatEpoch.EPOCH_HEADER).ifPresent(epoch -> heard(node, SeatEpoch.ofHeaders(epoch,
                answer.firstValue(SeatEpoch.SEAT_HEADER).orElse(null), answer.firstValue(SeatEpoch.URL_HEADER).orElse(null))));
    }

    /** Any call of the agent's API ({@link AgentApi}), bounded by {@code timeout}; a starting agent is waited for. */
    <T> T call(Node node, AgentApi.Call<T> call, Duration timeout) {
        return call(node, call, timeout, STARTING);
    }

    /** The same, waiting {@code waitWhileStarting} at most for an agent that says it is starting. */
    <T> T call(Node node, AgentApi.Call<T> call, Duration timeout, Duration waitWhileStarting) {
        refuseIfDeposed(node, call.method());
        try {
            return new JsonHttp((m, p, headers, json, t) -> exchange(node, m, p, headers, json, t), null, words(node))
                    .call(call.method(), call.path(), call.body(), call.answer(), timeout, waitWhileStarting);
        } catch (CallFailure refused) {
            if (refused.reason() == mesh.wire.Reason.DEPOSED && deposed == null) {
                deposed = refused.getMessage();
                LOG.errorf("this controller has been deposed: %s", refused.getMessage());
            }
            throw refused;
        }
    }

    private JsonHttp.Answer exchange(Node node, String method, String path, Map<String, String> headers, String body,
                                     Duration timeout) throws IOException, InterruptedException {
        Map<String, String> named = new LinkedHashMap<>(headers);
        named.putAll(epochHeaders());
        return http().exchange(URI.create(node.agent().replaceAll("/+$", "") + path), method, named, body, timeout,
                answer -> heardIn(node, answer));
    }

    /** What went wrong asking a node's agent, in words that name the node (each failure a {@link CallFailure}). */
    static JsonHttp.Words words(Node node) {
        return new JsonHttp.Words() {
            @Override
            public String unreachable(Exception e) {
                if (e instanceof InterruptedException) {
                    return "interrupted while asking node " + node.name();
                }
                String tlsProblem = mesh.trust.TlsFailure.describe(e, node.agent());
                if (tlsProblem != null) {
                    return "node " + node.name() + "'s agent at " + node.agent() + ": " + tlsProblem;
                }
                return "node " + node.name() + "'s agent at " + node.agent() + " did not answer (" + JsonHttp.why(e) + ")";
            }

            @Override
            public String refused(JsonHttp.Answer a, ApiError error) {
                return "node " + node.name() + "'s agent refused (" + a.status() + "): " + (error == null ? a.body() : error.error());
            }

            @Override
            public String unreadable(JsonHttp.Answer a, String detail) {
                return "node " + node.name() + "'s agent answered something unreadable: " + detail;
            }
        };
    }
}
