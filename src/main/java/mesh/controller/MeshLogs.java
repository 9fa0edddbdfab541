package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mesh.api.Refusal;
import mesh.model.Node;
import mesh.model.Poll;
import mesh.model.NotFound;
import mesh.plan.LogChoice;
import mesh.plan.LogQuery;
import mesh.store.MeshStore;
import mesh.wire.JsonHttp;
import mesh.wire.LinePublisher;
import mesh.wire.LineQueue;
import mesh.wire.LogLine;

/**
 * MeshLogs relays {@code mesh logs}: it picks the node the module is taken on and the components
 * ({@link LogChoice}), opens each component's stream on that node's agent ({@code GET /v1/logs/{component}}) and
 * hands their lines, as they come, to one {@link LineQueue}. Nothing is buffered whole: a reader thread per
 * agent stream reads a line only once the queue has room (the JDK client's {@code ofInputStream} then stops
 * reading the connection, and the agent stops writing). A stream silent for {@link LinePublisher#SILENCE}
 * (the agent sends a keep-alive every {@link LinePublisher#KEEP_ALIVE}) is closed and ends with an error naming
 * the node; the time a reader waits for room in the queue is not silence.
 */
@ApplicationScoped
public class MeshLogs {

    /** How long the agent's head may take: it looks the component up with its engine first. */
    static final Duration HEAD = Duration.ofSeconds(30);

    @Inject
    MeshStore store;

    @Inject
    AgentClient agents;

    /** The queue of {@code module}'s output (or its {@code component}'s), its first line saying which are shown. */
    public LineQueue open(String module, String component, LogQuery query) {
        record Found(LogChoice.Target target, Node node) {
        }
        Found found = store.inTransaction(c -> {
            LogChoice.Target t = LogChoice.choose(module, component, store.module(c, module).map(MeshStore.StoredModule::manifest),
                    store.placements(c).stream().filter(p -> p.module().equals(module)).findFirst());
            Node n = store.node(c, t.node()).orElseThrow(() -> new NotFound("module " + module + " is taken on node "
                    + t.node() + ", which the mesh no longer has"));
            return new Found(t, n);
        });
        List<HttpResponse<InputStream>> streams = new ArrayList<>();
        try {
            for (String name : found.target().components()) {
                streams.add(request(found.node(), name, query));
            }
        } catch (RuntimeException e) {
            streams.forEach(MeshLogs::close);
            throw e;
        }
        LineQueue queue = new LineQueue(streams.size() + 1);
        try {
            queue.put(LogLine.shown(found.target().components()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        queue.done();
        for (int i = 0; i < streams.size(); i++) {
            String name = found.target().components().get(i);
            HttpResponse<InputStream> response = streams.get(i);
            queue.onClose(() -> close(response));
            Thread.ofVirtual().name("logs relay " + name).start(() -> relay(queue, found.node(), name, response,
                    query.follow()));
        }
        return queue;
    }

    /** Opens one component's stream; the agent's refusal (an unknown component, 404) is the answer's. */
    private HttpResponse<InputStream> request(Node node, String component, LogQuery query) {
        String q = query.query();
        HttpRequest request = HttpRequest.newBuilder(URI.create(node.agent().replaceAll("/+$", "") + mesh.client.AgentApi.logs(component, q)))
                .timeout(HEAD).header("Accept", "application/x-ndjson").GET().build();
        HttpResponse<InputStream> response;
        try {
            response = agents.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw refusal(JsonHttp.unreachable(AgentClient.words(node), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw refusal(JsonHttp.unreachable(AgentClient.words(node), e));
        }
        if (response.statusCode() / 100 != 2) {
            String said;
            try (InputStream in = response.body()) {
                String text = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
                said = mesh.model.DeclarationJson.MAPPER.readTree(text.isBlank() ? "{}" : text).path("error").asText(text);
            } catch (IOException e) {
                said = "(its answer could not be read: " + e.getMessage() + ")";
            }
            int status = response.statusCode() == 404 ? 404 : 502;
            throw new Refusal(status, "node " + node.name() + "'s agent refused the logs of " + component + " ("
                    + response.statusCode() + "): " + said);
        }
        return response;
    }

    private static Refusal refusal(RuntimeException unreachable) {
        return new Refusal(502, unreachable.getMessage());
    }

    /**
     * Reads one agent stream into the queue until it ends, breaks, falls silent, or the queue is closed. A follow
     * the agent ends says why in its last line; one that ends without it was cut.
     */
    private static void relay(LineQueue queue, Node node, String component, HttpResponse<InputStream> response,
                              boolean follow) {
        Silence silence = new Silence(response, LinePublisher.SILENCE);
        boolean said = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            while (true) {
                silence.reading(true);
                String text = lines.readLine();
                silence.reading(false);
                if (text == null) {
                    break;
                }
                LogLine line = LogLine.read(text);
                if (line == null) {
                    continue;   // a keep-alive
                }
                said |= line.end() != null || line.error() != null;
                if (!queue.put(line)) {
                    return;   // the reader went away: the close actions closed the agent's stream
                }
            }
            if (follow && !said && !queue.closed()) {
                queue.put(LogLine.failed(component, "node " + node.name() + "'s agent ended the logs of " + component
                        + " without saying why"));
            }
        } catch (IOException | RuntimeException e) {
            if (!queue.closed()) {
                put(queue, LogLine.failed(component, silence.fired()
                        ? "node " + node.name() + "'s agent sent nothing for " + LinePublisher.SILENCE.toSeconds()
                        + " s, not even its keep-alive (every " + LinePublisher.KEEP_ALIVE.toSeconds()
                        + " s): stopped, or the link to it is down"
                        : "the logs of " + component + " from node " + node.name() + " broke off (" + JsonHttp.why(e) + ")"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            silence.stop();
            queue.done();
        }
    }

    private static void put(LineQueue queue, LogLine line) {
        try {
            queue.put(line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void close(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException e) {
            // dropping it anyway
        }
    }

    /**
     * Silence closes an agent's stream when its reader has waited for a line for longer than the deadline (closing
     * the JDK client's {@code ofInputStream} body ends a blocked read with an IOException), so a stopped agent ends
     * the relay with an error instead of holding it for ever. Only the time spent reading counts.
     */
    private static final class Silence {
        private final HttpResponse<InputStream> response;
        private final Duration deadline;
        private final Thread dog;
        private volatile long since = System.nanoTime();
        private volatile boolean reading;
        private volatile boolean stopped;
        private volatile boolean fired;

        Silence(HttpResponse<InputStream> response, Duration deadline) {
            this.response = response;
            this.deadline = deadline;
            this.dog = Thread.ofVirtual().name("logs-silence").start(this::watch);
        }

        void reading(boolean now) {
            since = System.nanoTime();
            reading = now;
        }

        boolean fired() {
            return fired;
        }

        void stop() {
            stopped = true;
            dog.interrupt();
        }

        private void watch() {
            try {
                // no deadline: the silence ends it, or the stop
                Poll.until(Poll.NO_LIMIT, Duration.ofSeconds(1), () -> {
                    if (stopped) {
                        return Poll.got(false);
                    }
                    if (reading && System.nanoTime() - since > deadline.toNanos()) {
                        fired = true;
                        close(response);
                        return Poll.got(true);
                    }
                    return Poll.notYet("lines arrive");
                });
            } catch (java.util.concurrent.CancellationException stoppedByInterrupt) {
                // stop() interrupts the watch
            }
        }
    }
}
