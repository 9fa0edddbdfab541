package mesh.controller;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.model.VolumeManifest;
import mesh.wire.JsonHttp;
import mesh.wire.TakeWire;

/**
 * TakeAgents is the take's part of the controller's edge to the agents: the calls of the take
 * contract (docs/take.md), each bounded, each failure an {@link AgentClient.Unreachable} naming
 * the node. The copy itself runs agent to agent; the controller only reads its progress lines.
 */
class TakeAgents {

    /** Stopping a module waits on its stop timeouts; a manifest hashes every byte of a volume. */
    static final Duration SLOW = Duration.ofMinutes(10);

    private final AgentClient agents;

    TakeAgents(AgentClient agents) {
        this.agents = agents;
    }

    private static String seg(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private <T> T call(Node node, String token, String method, String path, Object body, Class<T> answer, Duration timeout) {
        return agents.call(node, token, method, path, body, answer == null ? null
                : DeclarationJson.MAPPER.constructType(answer), timeout);
    }

    TakeWire.Fenced fence(Node node, String token, String module, long epoch) {
        return call(node, token, "PUT", "/v1/fences/" + seg(module), new TakeWire.Epoch(epoch), TakeWire.Fenced.class, SLOW);
    }

    TakeWire.Lifted unfence(Node node, String token, String module, long epoch) {
        return call(node, token, "DELETE", "/v1/fences/" + seg(module) + "?epoch=" + epoch, null, TakeWire.Lifted.class,
                AgentClient.REQUEST);
    }

    String ticket(Node node, String token, String module, long epoch) {
        return call(node, token, "POST", "/v1/volumes/" + seg(module) + "/tickets", new TakeWire.Epoch(epoch),
                TakeWire.Ticket.class, AgentClient.REQUEST).ticket();
    }

    /** The module's volumes of {@code kind} on the node. */
    List<TakeWire.Volume> volumes(Node node, String token, String module, String kind) {
        JavaType list = DeclarationJson.MAPPER.getTypeFactory().constructCollectionType(List.class, TakeWire.Volume.class);
        List<TakeWire.Volume> found = agents.call(node, token, "GET", "/v1/volumes/" + seg(module) + "?kind=" + kind, null,
                list, SLOW);
        return found == null ? List.of() : found;
    }

    /** The free bytes at each place the node keeps data; the answer may be one place or a list of them. */
    List<TakeWire.Disk> disk(Node node, String token) {
        JsonNode answer = agents.call(node, token, "GET", "/v1/disk", null,
                DeclarationJson.MAPPER.constructType(JsonNode.class), AgentClient.REQUEST);
        List<TakeWire.Disk> places = new ArrayList<>();
        (answer == null ? Stream.<JsonNode>empty() : answer.isArray() ? Stream.of(answer).flatMap(a -> {
            List<JsonNode> all = new ArrayList<>();
            a.forEach(all::add);
            return all.stream();
        }) : Stream.of(answer)).forEach(n -> places.add(new TakeWire.Disk(n.path("path").asText(null), n.path("free").asLong())));
        return places;
    }

    VolumeManifest manifest(Node node, String token, String module, String volume, String kind) {
        return call(node, token, "GET", "/v1/volumes/" + seg(module) + "/" + seg(volume) + "/manifest?kind=" + kind, null,
                VolumeManifest.class, SLOW);
    }

    void oldCopy(Node node, String token, String module, long epoch, List<String> volumes) {
        call(node, token, "POST", "/v1/volumes/" + seg(module) + "/old-copy", new TakeWire.OldCopy(epoch, volumes), null,
                AgentClient.REQUEST);
    }

    void delete(Node node, String token, String module, String volume, String kind, long epoch, String reason) {
        call(node, token, "DELETE", "/v1/volumes/" + seg(module) + "/" + seg(volume) + "?kind=" + kind + "&epoch=" + epoch
                + "&reason=" + reason, null, null, SLOW);
    }

    /**
     * Has the target copy one volume from the source agent, and hands each progress line to
     * {@code progress}; returns the last line. Streamed (application/x-ndjson): no timeout on the
     * whole, as a volume may take long; a dead agent on either side closes the stream.
     */
    TakeWire.CopyLine copy(Node target, String token, String module, String volume, TakeWire.Copy body,
                           Consumer<TakeWire.CopyLine> progress) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(target.agent().replaceAll("/+$", "") + "/v1/volumes/"
                        + seg(module) + "/" + seg(volume) + "/copy"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(DeclarationJson.write(body))).build();
        JsonHttp.Failures failures = AgentClient.failures(target);
        HttpResponse<InputStream> response;
        try {
            response = agents.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw failures.unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.unreachable(e);
        }
        try (InputStream in = response.body(); var lines = new java.io.BufferedReader(
                new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
            if (response.statusCode() / 100 != 2) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                String said = DeclarationJson.MAPPER.readTree(text.isBlank() ? "{}" : text).path("error").asText(text);
                throw new AgentClient.Unreachable("node " + target.name() + "'s agent refused (" + response.statusCode()
                        + "): " + said, response.statusCode());
            }
            TakeWire.CopyLine last = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                TakeWire.CopyLine l = DeclarationJson.MAPPER.readerFor(TakeWire.CopyLine.class)
                        .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .readValue(line);
                last = l;
                if (l.done() != null) {
                    return l;
                }
                progress.accept(l);
            }
            throw new AgentClient.Unreachable("node " + target.name() + "'s agent ended the copy of volume " + volume
                    + " without saying it was done" + (last == null ? "" : " (after " + last.bytes() + " bytes)"), 0);
        } catch (IOException e) {
            throw new AgentClient.Unreachable("the copy of volume " + volume + " to node " + target.name()
                    + " broke off (" + JsonHttp.why(e) + ")", 0);
        }
    }
}
