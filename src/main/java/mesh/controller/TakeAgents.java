package mesh.controller;

import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.wire.JsonHttp;
import mesh.wire.CopyProgress;
import mesh.wire.DiskView;
import mesh.wire.FenceLifted;
import mesh.wire.FenceView;
import mesh.wire.OldCopyRequest;
import mesh.wire.ReadTicket;
import mesh.wire.TakeEpoch;
import mesh.wire.VolumeCopyRequest;
import mesh.wire.VolumeManifest;
import mesh.wire.VolumeView;

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

    private <T> T call(Node node, String method, String path, Object body, Class<T> answer, Duration timeout) {
        return agents.call(node, method, path, body, answer == null ? null
                : DeclarationJson.MAPPER.constructType(answer), timeout);
    }

    FenceView fence(Node node, String module, long epoch) {
        return call(node, "PUT", "/v1/fences/" + seg(module), new TakeEpoch(epoch), FenceView.class, SLOW);
    }

    FenceLifted unfence(Node node, String module, long epoch) {
        return call(node, "DELETE", "/v1/fences/" + seg(module) + "?epoch=" + epoch, null, FenceLifted.class,
                AgentClient.REQUEST);
    }

    String ticket(Node node, String module, long epoch) {
        return call(node, "POST", "/v1/volumes/" + seg(module) + "/tickets", new TakeEpoch(epoch),
                ReadTicket.class, AgentClient.REQUEST).ticket();
    }

    /** The module's volumes of {@code kind} on the node. */
    List<VolumeView> volumes(Node node, String module, String kind) {
        JavaType list = DeclarationJson.MAPPER.getTypeFactory().constructCollectionType(List.class, VolumeView.class);
        List<VolumeView> found = agents.call(node, "GET", "/v1/volumes/" + seg(module) + "?kind=" + kind, null,
                list, SLOW);
        return found == null ? List.of() : found;
    }

    /** The images of {@code images} the node's engine lacks even after pulling them (POST /v1/images). */
    List<mesh.wire.ImagesAnswer.Missing> images(Node node, List<String> images) {
        mesh.wire.ImagesAnswer a = call(node, "POST", "/v1/images", new mesh.wire.ImagesRequest(images, true),
                mesh.wire.ImagesAnswer.class, SLOW);
        return a == null || a.missing() == null ? List.of() : a.missing();
    }

    /**
     * The bundles of {@code bundles} the node lacks and cannot get from {@code registry} (POST /v1/bundles):
     * with {@code fetch} it fetches each one it lacks first; without, it asks the store whether it has it.
     */
    List<mesh.wire.BundlesAnswer.Missing> bundles(Node node, List<String> bundles, String registry, boolean fetch) {
        if (bundles.isEmpty()) {
            return List.of();
        }
        mesh.wire.BundlesAnswer a = call(node, "POST", "/v1/bundles", new mesh.wire.BundlesRequest(bundles, registry, fetch),
                mesh.wire.BundlesAnswer.class, SLOW);
        return a == null || a.missing() == null ? List.of() : a.missing();
    }

    /** The free bytes where a copy lands: {@code path}/{@code free} are the tighter of the engine's data root and the state dir. */
    DiskView disk(Node node) {
        return call(node, "GET", "/v1/disk", null, DiskView.class, AgentClient.REQUEST);
    }

    VolumeManifest manifest(Node node, String module, String volume, String kind) {
        return call(node, "GET", "/v1/volumes/" + seg(module) + "/" + seg(volume) + "/manifest?kind=" + kind, null,
                VolumeManifest.class, SLOW);
    }

    void oldCopy(Node node, String module, long epoch, List<String> volumes) {
        call(node, "POST", "/v1/volumes/" + seg(module) + "/old-copy", new OldCopyRequest(epoch, volumes), null,
                AgentClient.REQUEST);
    }

    void delete(Node node, String module, String volume, String kind, long epoch, String reason) {
        call(node, "DELETE", "/v1/volumes/" + seg(module) + "/" + seg(volume) + "?kind=" + kind + "&epoch=" + epoch
                + "&reason=" + reason, null, null, SLOW);
    }

    /**
     * Has the target copy one volume from the source agent, and hands each progress line to
     * {@code progress}; returns the last line. Streamed (application/x-ndjson): no timeout on the
     * whole, as a volume may take long; a dead agent on either side closes the stream.
     */
    CopyProgress copy(Node target, String module, String volume, VolumeCopyRequest body,
                           Consumer<CopyProgress> progress) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(target.agent().replaceAll("/+$", "") + "/v1/volumes/"
                        + seg(module) + "/" + seg(volume) + "/copy"))
                .header("Content-Type", "application/json")
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
            CopyProgress last = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                CopyProgress l = DeclarationJson.MAPPER.readerFor(CopyProgress.class)
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
