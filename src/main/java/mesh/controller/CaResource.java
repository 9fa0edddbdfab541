package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import mesh.wire.RotateReport;
import mesh.wire.RotateRequest;

/** CaResource is the mesh CA's operator API: {@code POST /v1/mesh/ca/rotate-certs} ({@code mesh ca rotate-certs}; {@link MeshRotation}). */
@Path("/v1/mesh/ca")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class CaResource {

    @Inject
    MeshRotation rotation;

    @POST
    @Path("/rotate-certs")
    public RotateReport rotate(String body) {
        RotateRequest request = body == null || body.isBlank() ? new RotateRequest(null)
                : Bodies.read(body, RotateRequest.class, "{\"nodes\": [NAME, …]}");
        return rotation.rotate(request.nodes());
    }
}
