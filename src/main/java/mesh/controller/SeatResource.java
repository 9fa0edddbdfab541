package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import mesh.wire.SeatsView;
import mesh.wire.StandbyAdded;

/** SeatResource is the seats' API (docs/seat.md): the seat and its standbys for {@code mesh status}, and {@code mesh seat add}. */
@Path("/v1/mesh/seats")
@Produces(MediaType.APPLICATION_JSON)
@jakarta.ws.rs.Consumes(MediaType.WILDCARD)
public class SeatResource {

    @Inject
    MeshSeats seats;

    @GET
    public SeatsView seats() {
        return seats.view();
    }

    @POST
    @Path("/{node}")
    public StandbyAdded add(@PathParam("node") String node) {
        return seats.add(node);
    }
}
