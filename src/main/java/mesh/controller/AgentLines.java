package mesh.controller;

import mesh.wire.CallFailure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.model.Poll;
import mesh.wire.JsonHttp;

/**
 * AgentLines is one call of a node's agent answered with NDJSON progress lines (a take's copy, a backup, a restore, a
 * verify): no deadline on the whole, since a volume may take long, but one on the answer's head and one on each line.
 * The agent sends a line a second, so a watch closes the stream when none came for {@code noLine}: the reader blocked
 * in {@code readLine} wakes up (closing the JDK client's {@code ofInputStream} body ends a blocked read with an
 * IOException: checked on JDK 25) and the step fails saying the agent went silent, instead of waiting for ever. Every
 * failure is a {@link CallFailure} that names the node, prefixed by what the call is.
 */
final class AgentLines implements AutoCloseable {

    private final Node node;
    private final String what;
    private final Duration noLine;
    private final InputStream in;
    private final BufferedReader reader;
    private final Thread watch;
    private volatile long lastLine = System.nanoTime();
    private volatile boolean stopped;
    private volatile boolean silent;

    private AgentLines(Node node, String what, Duration noLine, InputStream in) {
        this.node = node;
        this.what = what;
        this.noLine = noLine;
        this.in = in;
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.watch = Thread.ofVirtual().name("agent-line-watch").start(this::watch);
    }

    /**
     * POSTs {@code body} as JSON to {@code path} of the node's agent and opens its lines, the answer's head within
     * {@code head}. An agent that does not answer, or refuses (not 2xx; its {@code error} quoted, with its status),
     * throws.
     */
    static AgentLines post(AgentClient agents, Node node, String path, Object body, Duration head, Duration noLine,
                           String what) {
        agents.refuseIfDeposed(node, "POST");
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(node.agent().replaceAll("/+$", "") + path))
                .timeout(head)
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(DeclarationJson.write(body)));
        agents.epochHeaders().forEach(builder::header);   // the agent's fence judges this change by its epoch, as any other
        HttpRequest request = builder.build();
        HttpResponse<InputStream> response;
        try {
            response = agents.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw JsonHttp.unreachable(AgentClient.words(node), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw JsonHttp.unreachable(AgentClient.words(node), e);
        }
        agents.heardIn(node, response.headers());
        if (response.statusCode() / 100 != 2) {
            throw CallFailure.refused(response.statusCode(), null, "node " + node.name() + "'s agent refused ("
                    + response.statusCode() + "): " + refusal(response.body()));
        }
        return new AgentLines(node, what, noLine, response.body());
    }

    /** The refusal's {@code error}, or its text when it is not JSON (a proxy's page, a truncated answer). */
    private static String refusal(InputStream body) {
        try (body) {
            String text = new String(body.readNBytes(64 * 1024), StandardCharsets.UTF_8);
            try {
                return DeclarationJson.MAPPER.readTree(text.isBlank() ? "{}" : text).path("error").asText(text);
            } catch (IOException notJson) {
                return text.strip();
            }
        } catch (IOException e) {
            return "(its answer could not be read: " + JsonHttp.why(e) + ")";
        }
    }

    /** The next line that is not blank, or null where the stream ended. */
    String next() {
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lastLine = System.nanoTime();
                if (!line.isBlank()) {
                    return line;
                }
            }
        } catch (IOException e) {
            throw broken(e);
        }
        if (silent) {   // the watch closed it and the read saw an end rather than an error
            throw silence();
        }
        return null;
    }

    /** A line read as {@code type} (properties it does not know are skipped: a newer agent may send more). */
    <T> T parse(String line, Class<T> type) {
        try {
            return DeclarationJson.MAPPER.readerFor(type)
                    .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(line);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    private CallFailure broken(IOException e) {
        return silent ? silence() : CallFailure.unreachable(what + " broke off (" + JsonHttp.why(e) + ")");
    }

    private CallFailure silence() {
        return CallFailure.unreachable(what + ": node " + node.name() + "'s agent sent no progress for "
                + noLine.toSeconds() + " s (stopped, or the link to it is down)");
    }

    /** Stops the watch and closes the stream (an answer not read to its end is given up on). */
    @Override
    public void close() {
        stopped = true;
        watch.interrupt();
        closeStream();
    }

    private void watch() {
        try {
            // no deadline: the silence ends it, or the close; it looks a second apart, or when the silence is due
            Poll.until(Poll.NO_LIMIT, waited -> Duration.ofNanos(Math.min(silenceLeft(), Duration.ofSeconds(1).toNanos())), () -> {
                if (stopped) {
                    return Poll.got(false);
                }
                if (silenceLeft() <= 0) {
                    silent = true;
                    closeStream();
                    return Poll.got(true);
                }
                return Poll.notYet("lines arrive");
            });
        } catch (java.util.concurrent.CancellationException closed) {
            // close() interrupts the watch
        }
    }

    /** How long until the silence is {@code noLine} long (zero or less: it is). */
    private long silenceLeft() {
        return noLine.toNanos() - (System.nanoTime() - lastLine);
    }

    private void closeStream() {
        try {
            in.close();
        } catch (IOException e) {
            // closing is how a silent agent is given up on; nothing more to do
        }
    }
}
