package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import mesh.wire.AlertReceiver;
import mesh.wire.AlertReceiverRequest;
import mesh.wire.AlertsView;

/** AlertResource is the alerts' API ({@code mesh alerts list|add|remove}); see {@link MeshAlerts} and {@link AlertWatch}. */
@Path("/v1/mesh/alerts")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class AlertResource {

    @Inject
    MeshAlerts alerts;

    @GET
    public AlertsView list() {
        return alerts.list();
    }

    @POST
    @Path("/receivers")
    public Response add(String body) {
        AlertReceiverRequest r = Bodies.read(body, AlertReceiverRequest.class, "{\"url\", \"check\"}");
        return Response.status(201).entity(alerts.add(r.url(), r.check() == null || r.check())).build();
    }

    @DELETE
    @Path("/receivers")
    public AlertReceiver remove(@QueryParam("url") String url) {
        return alerts.remove(url);
    }
}
