package mesh.host.edge;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import mesh.api.Refusal;
import mesh.wire.EdgeCa;

/**
 * EdgeResource is the edge part of the agent's API (behind the controller's certificate, like the rest of
 * {@code /v1/}): {@code GET /v1/edge/ca} answers the root certificate of the edge's internal CA, so
 * a client of a mesh with {@code MESH_EDGE_TLS: internal} can verify its routes: as PEM, or as
 * {@link EdgeCa} to a caller that accepts JSON (the controller, for {@code mesh route ca NODE}).
 */
@Path("/v1/edge")
public class EdgeResource {

    static final String PEM = "application/x-pem-file";

    @Inject
    EdgeKeeper edge;

    @GET
    @Path("/ca")
    @Produces({PEM, MediaType.APPLICATION_JSON})
    public Response ca(@HeaderParam("Accept") String accept) {
        String pem;
        try {
            pem = edge.caRoot();
        } catch (IOException e) {
            throw new Refusal(503, "the edge's CA is not available: " + e.getMessage());
        }
        return accept != null && accept.contains(MediaType.APPLICATION_JSON)
                ? Response.ok(new EdgeCa(edge.node(), pem), MediaType.APPLICATION_JSON).build()
                : Response.ok(pem, PEM).build();
    }
}
