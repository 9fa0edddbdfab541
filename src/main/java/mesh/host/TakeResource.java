package mesh.host;

import static mesh.host.AgentCalls.call;
import static mesh.host.AgentCalls.read;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import mesh.api.Refusal;
import mesh.host.take.ImageCheck;
import mesh.host.take.TakeService;
import mesh.model.DeclarationJson;
import mesh.wire.CopyProgress;
import mesh.wire.DiskView;
import mesh.wire.FenceLifted;
import mesh.wire.FenceView;
import mesh.wire.ImagesAnswer;
import mesh.wire.ImagesRequest;
import mesh.wire.OldCopyRequest;
import mesh.wire.ReadTicket;
import mesh.wire.TakeEpoch;
import mesh.wire.VolumeCopyRequest;
import mesh.model.VolumeManifest;
import mesh.wire.VolumeView;

/**
 * TakeResource is the agent's take API (docs/take.md, "On the nodes"): fences, read tickets, manifests,
 * archives, the target's copy, deleting a copy, old-copy records and free disk. Every call but manifest and
 * archive needs the controller's certificate; those two also take a read ticket of their module
 * ({@link HostApiGuard}). Each refusal is the agent's error body and changes nothing.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class TakeResource {

    @Inject
    HostAgent agent;

    @PUT
    @Path("/fences/{module}")
    @Consumes(MediaType.WILDCARD)
    public FenceView fence(@PathParam("module") String module, String body) {
        return call(() -> takes().fence(module, epochOf(body)));
    }

    /**
     * On a take's target, before the source's fence: fences the module here and creates its containers as the start
     * declaration in the body has them, never started (docs/take.md, "The target's containers, created before the fence").
     */
    @PUT
    @Path("/fences/{module}/created")
    @Consumes(MediaType.WILDCARD)
    public mesh.wire.TakeCreated createFenced(@PathParam("module") String module, String body) {
        return call(() -> {
            mesh.wire.TakeCreate c = read(body, mesh.wire.TakeCreate.class, "{\"epoch\": 7, \"declaration\": {...}}");
            return takes().targetContainers().create(module, c.epoch(), c.declaration());
        });
    }

    @DELETE
    @Path("/fences/{module}")
    public FenceLifted lift(@PathParam("module") String module, @QueryParam("epoch") String epoch) {
        return call(() -> takes().lift(module, number("epoch", epoch)));
    }

    @GET
    @Path("/fences")
    public List<FenceView> fences() {
        return call(() -> takes().fences());
    }

    @POST
    @Path("/volumes/{module}/tickets")
    @Consumes(MediaType.WILDCARD)
    public ReadTicket ticket(@PathParam("module") String module, String body) {
        return call(() -> new ReadTicket(takes().ticket(module, epochOf(body))));
    }

    /** A read ticket of a take's pre-copy: reads the module's volumes while it runs, until a fence or a lift. */
    @POST
    @Path("/volumes/{module}/live-tickets")
    @Consumes(MediaType.WILDCARD)
    public ReadTicket liveTicket(@PathParam("module") String module, String body) {
        return call(() -> new ReadTicket(takes().liveTicket(module, epochOf(body))));
    }

    /** The volume's index (lstat of every entry, no file read): what a pass compares to send only what differs. */
    @GET
    @Path("/volumes/{module}/{volume}/index")
    @Blocking
    public mesh.model.VolumeIndex index(@PathParam("module") String module, @PathParam("volume") String volume,
                                       @QueryParam("kind") String kind, @QueryParam("live") boolean live) {
        return call(() -> takes().index(module, volume, kind, live));
    }

    @GET
    @Path("/volumes/{module}/{volume}/manifest")
    public VolumeManifest manifest(@PathParam("module") String module, @PathParam("volume") String volume,
                                   @QueryParam("kind") String kind, @QueryParam("warm") boolean warm) {
        return call(() -> takes().manifest(module, volume, kind, warm));
    }

    /**
     * The volume's archive, streamed with back-pressure: a {@code Multi} of tar's chunks, each read only once the
     * previous one was written to the connection (resteasy-reactive's {@code PublisherResponseHandler} asks for
     * one item at a time). A {@code StreamingOutput} here wrote as fast as tar read, whatever the reader took, and
     * an agent with the serve flags' 64 MB ran out of direct buffer memory (quarkusio/quarkus#50317, open, and
     * quarkusio/quarkus#41635). An error after the head was sent resets the connection, so the reader sees a broken
     * archive, never a short complete one. Blocking: the checks read the take record and ask the engine for the
     * volume's folder before anything is sent, so a refusal is still the agent's JSON error.
     */
    @GET
    @Path("/volumes/{module}/{volume}/archive")
    @Produces("application/x-tar")
    @Blocking
    public Multi<byte[]> archive(@PathParam("module") String module, @PathParam("volume") String volume,
                                 @QueryParam("kind") String kind, @QueryParam("live") boolean live) {
        return Multi.createFrom().publisher(call(() -> takes().archive(module, volume, kind, live, null)));
    }

    /**
     * The archive of only the entries the body names (a JSON list of paths inside the volume), each without what is
     * under it: a take's pass after the first. Streamed with back-pressure as the whole archive is.
     */
    @POST
    @Path("/volumes/{module}/{volume}/archive")
    @Consumes(MediaType.WILDCARD)
    @Produces("application/x-tar")
    @Blocking
    public Multi<byte[]> archiveOf(@PathParam("module") String module, @PathParam("volume") String volume,
                                   @QueryParam("kind") String kind, @QueryParam("live") boolean live, String body) {
        String[] paths = read(body == null || body.isBlank() ? "[]" : body, String[].class, "[\"d03/f0042.txt\", \".\"]");
        return Multi.createFrom().publisher(call(() -> takes().archive(module, volume, kind, live, List.of(paths))));
    }

    /**
     * The blocks of one file that differ from the target's copy (a JSON {@link mesh.wire.RangeRequest}), as frames
     * ({@code mesh.host.take.RangeFrames}) streamed with back-pressure as an archive is: a take's deltas by range.
     */
    @POST
    @Path("/volumes/{module}/{volume}/ranges")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    @Blocking
    public Multi<byte[]> ranges(@PathParam("module") String module, @PathParam("volume") String volume,
                                @QueryParam("kind") String kind, @QueryParam("live") boolean live, String body) {
        mesh.wire.RangeRequest request = read(body, mesh.wire.RangeRequest.class,
                "{\"path\": \"pg/base/16384\", \"block\": 1048576, \"size\": 2097152, \"hashes\": [1, 2]}");
        return Multi.createFrom().publisher(call(() -> takes().ranges(module, volume, kind, live, request)));
    }

    /**
     * The target's copy: its progress lines as NDJSON, one a second, then the final line. The lines are a
     * {@code Multi} with latest-wins overflow: when the controller stops reading (stopped, its link down) the
     * copy is never held up by a line it cannot write; only the newest line waits, and the final one replaces
     * it, so memory stays one line whatever happens. A controller that went away cancels the stream: the next
     * line the copy hands over is refused and the copy stops (its caller is gone, {@link TakeService#copy}).
     * Blocking: the checks and the emptying of an earlier copy happen before the head is sent, so a refusal is
     * the agent's JSON error; the copy itself runs on a virtual thread of its own.
     */
    @POST
    @Path("/volumes/{module}/{volume}/copy")
    @Consumes(MediaType.WILDCARD)
    @Produces("application/x-ndjson")
    @Blocking
    public Multi<byte[]> copy(@PathParam("module") String module, @PathParam("volume") String volume, String body) {
        VolumeCopyRequest request = read(body, VolumeCopyRequest.class, COPY_BODY);
        if (request.from() == null || request.ticket() == null) {
            throw new Refusal(400, "a copy needs 'from' (the source agent's URL) and 'ticket' (its read ticket)");
        }
        boolean delta = Boolean.TRUE.equals(request.delta());
        java.nio.file.Path folder = call(() -> takes().prepareCopy(module, volume, request.kind(), request.epoch(), delta));
        mesh.host.take.VolumeCopy.Pass pass = new mesh.host.take.VolumeCopy.Pass(Boolean.TRUE.equals(request.live()), delta,
                request.since() == null ? 0 : request.since());
        return Multi.createFrom().<byte[]>emitter(lines -> Thread.ofVirtual().name("copy " + module + "/" + volume).start(() -> {
            CopyProgress last;
            try {
                last = takes().copy(module, volume, request.kind(), pass, request.from(), request.ticket(), folder,
                        line -> {
                            if (lines.isCancelled()) {
                                throw new IllegalStateException("the caller of the copy went away");
                            }
                            lines.emit(line(line));
                        });
            } catch (RuntimeException e) {
                last = CopyProgress.failed("the copy of volume " + volume + " failed: " + e.getMessage());
            }
            lines.emit(line(last));
            lines.complete();
        }), BackPressureStrategy.LATEST);
    }

    @DELETE
    @Path("/volumes/{module}/{volume}")
    public Map<String, Object> delete(@PathParam("module") String module, @PathParam("volume") String volume,
                                      @QueryParam("kind") String kind, @QueryParam("epoch") String epoch,
                                      @QueryParam("reason") String reason) {
        return call(() -> {
            takes().delete(module, volume, kind, number("epoch", epoch), reason);
            return Map.of("module", module, "volume", volume, "deleted", true);
        });
    }

    @POST
    @Path("/volumes/{module}/old-copy")
    @Consumes(MediaType.WILDCARD)
    public List<VolumeView> oldCopy(@PathParam("module") String module, String body) {
        OldCopyRequest request = read(body, OldCopyRequest.class, "{\"epoch\": 7, \"volumes\": [\"data\"]}");
        return call(() -> {
            takes().oldCopy(module, request.epoch(), request.volumes());
            return takes().volumes(module, agent.state().declaredVolumes(module), null);
        });
    }

    @GET
    @Path("/volumes/{module}")
    public List<VolumeView> volumes(@PathParam("module") String module, @QueryParam("kind") String kind) {
        return call(() -> takes().volumes(module, agent.state().declaredVolumes(module), kind));
    }

    @POST
    @Path("/images")
    @Consumes(MediaType.WILDCARD)
    public ImagesAnswer images(String body) {
        ImagesRequest request = read(body, ImagesRequest.class, "{\"images\": [\"busybox:1\"], \"fetch\": true}");
        return call(() -> ImageCheck.check(agent.engine(), request));
    }

    @POST
    @Path("/bundles")
    @Consumes(MediaType.WILDCARD)
    public mesh.wire.BundlesAnswer bundles(String body) {
        mesh.wire.BundlesRequest request = read(body, mesh.wire.BundlesRequest.class,
                "{\"bundles\": [\"it/web@sha256:...\"], \"registry\": \"http://10.77.0.11:5000\", \"fetch\": true}");
        return call(() -> agent.bundles(request));
    }

    @GET
    @Path("/disk")
    public DiskView disk() {
        return call(() -> takes().places().disk());
    }

    private TakeService takes() {
        return agent.takes();
    }

    /** One NDJSON line, without its newline: Quarkus REST ends each item of an application/x-ndjson Multi with one. */
    private static byte[] line(CopyProgress line) {
        try {
            return DeclarationJson.MAPPER.writeValueAsString(line).getBytes(StandardCharsets.UTF_8);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a progress line cannot be written as JSON", e);
        }
    }

    private static long epochOf(String body) {
        return read(body, TakeEpoch.class, "{\"epoch\": 7}").epoch();
    }

    private static final String COPY_BODY = "{\"epoch\": 7, \"kind\": \"container\", \"from\": \"http://10.77.0.11:7701\", "
            + "\"ticket\": \"...\"}";

    private static long number(String what, String text) {
        try {
            return Long.parseLong(text == null ? "" : text.strip());
        } catch (NumberFormatException e) {
            throw new Refusal(400, what + " must be a number, got '" + text + "'");
        }
    }

}
