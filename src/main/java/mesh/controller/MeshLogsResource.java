package mesh.controller;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import mesh.plan.LogQuery;
import mesh.wire.LinePublisher;

/**
 * MeshLogsResource is the operator's logs API ({@code mesh logs}; an operator token, as every call under
 * /v1/mesh/: {@link ControllerApiGuard}): {@code GET /v1/mesh/logs/{module}?component=&since=&tail=&follow=}, the
 * module's output as NDJSON {@link mesh.wire.LogLine}s relayed from its node's agent ({@link MeshLogs}), written
 * only as fast as the CLI reads, with a keep-alive every {@link LinePublisher#KEEP_ALIVE}. Blocking: the module,
 * its placement and the agent's answer are known before the head is sent, so a refusal is the JSON error.
 */
@Path("/v1/mesh/logs")
public class MeshLogsResource {

    @Inject
    MeshLogs logs;

    @GET
    @Path("/{module}")
    @Produces("application/x-ndjson")
    @Blocking
    public Multi<byte[]> logs(@PathParam("module") String module, @QueryParam("component") String component,
                              @QueryParam("since") String since, @QueryParam("tail") String tail,
                              @QueryParam("follow") String follow) {
        LogQuery query = LogQuery.of(since, tail, follow, Instant.now());
        return Multi.createFrom().publisher(new LinePublisher(module, logs.open(module, component, query),
                LinePublisher.KEEP_ALIVE, LinePublisher.NO_DEMAND));
    }
}
