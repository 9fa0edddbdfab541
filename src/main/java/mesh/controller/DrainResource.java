package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import mesh.wire.NodeView;

/** DrainResource is the cordon's API ({@code mesh node cordon|uncordon}) and the drain's ({@code mesh drain}). */
@Path("/v1/mesh")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class DrainResource {

    @Inject
    MeshController controller;

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
}
