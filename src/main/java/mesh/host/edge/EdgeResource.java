package mesh.host.edge;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.io.IOException;
import mesh.api.Refusal;

/**
 * EdgeResource is the edge part of the agent's API (behind the agent's token, like the rest of
 * {@code /v1/}): {@code GET /v1/edge/ca} answers the root certificate of the edge's internal CA, so
 * a client of a mesh with {@code MESH_EDGE_TLS: internal} can verify its routes.
 */
@Path("/v1/edge")
public class EdgeResource {

    @Inject
    EdgeKeeper edge;

    @GET
    @Path("/ca")
    @Produces("application/x-pem-file")
    public String ca() {
        try {
            return edge.caRoot();
        } catch (IOException e) {
            throw new Refusal(503, "the edge's CA is not available: " + e.getMessage());
        }
    }
}
