package mesh.client.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import mesh.wire.NodeStatus;
import mesh.wire.NodeView;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** PROTOTYPE (issue 43, measurement only): the controller's most-used calls as a declarative REST client. */
@RegisterRestClient
@Path("/v1/mesh")
@Produces(MediaType.APPLICATION_JSON)
public interface ControllerRest {

    @GET
    @Path("/nodes")
    List<NodeView> nodes(@HeaderParam("Authorization") String bearer);

    @GET
    @Path("/status")
    List<NodeStatus> status(@HeaderParam("Authorization") String bearer, @QueryParam("refresh") Boolean refresh);
}
