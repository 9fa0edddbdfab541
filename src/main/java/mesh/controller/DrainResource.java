package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.wire.DrainRequest;
import mesh.wire.DrainView;
import mesh.wire.NodeView;

/** DrainResource is the cordon's API ({@code mesh node cordon|uncordon}) and the drain's ({@code mesh drain}). */
@Path("/v1/mesh")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class DrainResource {

    @Inject
    MeshController controller;

    @Inject
    MeshDrain drains;

    /** Cordons a node; the body is ignored. */
    @PUT
    @Path("/nodes/{name}/cordon")
    public NodeView cordon(@PathParam("name") String name) {
        return controller.cordon(name, true);
    }

    /** Lifts a node's cordon. */
    @DELETE
    @Path("/nodes/{name}/cordon")
    public NodeView uncordon(@PathParam("name") String name) {
        return controller.cordon(name, false);
    }

    /** Begins (or carries on) a drain ({@code mesh drain NODE}); 202 while it runs, 200 for a dry run's plan. */
    @POST
    @Path("/drains")
    public Response drain(String body) {
        DrainRequest r = Bodies.read(body, DrainRequest.class, "{\"node\", \"to\": [...], \"parallel\", \"deadline\", \"dryRun\"}");
        if (r.node() == null || r.node().isBlank()) {
            throw new mesh.model.InvalidInput(List.of("drain: give the node to drain"));
        }
        return Response.status(Boolean.TRUE.equals(r.dryRun()) ? 200 : 202).entity(drains.begin(r)).build();
    }

    /** The newest drain of each node ({@code mesh drain --status}); {@code running=true}: only those under way. */
    @GET
    @Path("/drains")
    public List<DrainView> drains(@QueryParam("running") String running) {
        return drains.list(Bodies.flag("running", running));
    }

    /** The node's newest drain as it stands: {@code mesh drain} follows it with this. */
    @GET
    @Path("/drains/{node}")
    public DrainView drainOf(@PathParam("node") String node) {
        return drains.view(node);
    }
}
