package mesh.host;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import mesh.plan.LogQuery;
import mesh.wire.LinePublisher;
import mesh.wire.LineQueue;

/**
 * HostLogsResource is the agent's logs API (the controller's certificate only, as every agent call:
 * {@link HostApiGuard}): {@code GET /v1/logs/{component}?since=&tail=&follow=} streams one component's output
 * as NDJSON {@link mesh.wire.LogLine}s with a keep-alive every {@link LinePublisher#KEEP_ALIVE}, made only as
 * fast as the controller reads them; {@code GET /v1/logs} lists the streams open now. Blocking: the component is
 * looked up before the head is sent, so an unknown one is the agent's JSON error (404).
 */
@Path("/v1/logs")
public class HostLogsResource {

    @Inject
    ComponentLogs logs;

    @GET
    @Path("/{component}")
    @Produces("application/x-ndjson")
    @Blocking
    public Multi<byte[]> logs(@PathParam("component") String component, @QueryParam("since") String since,
                              @QueryParam("tail") String tail, @QueryParam("follow") String follow) {
        LineQueue queue = logs.open(component, LogQuery.of(since, tail, follow, Instant.now()));
        return Multi.createFrom().publisher(new LinePublisher(component, queue, LinePublisher.KEEP_ALIVE,
                LinePublisher.NO_DEMAND));
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<ComponentLogs.Open> open() {
        return logs.open();
    }
}
