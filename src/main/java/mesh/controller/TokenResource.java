package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.wire.OperatorToken;
import mesh.wire.TokenName;

/** TokenResource is the operator tokens' API ({@code mesh token create|list|revoke}); see {@link OperatorTokens}. */
@Path("/v1/mesh/tokens")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class TokenResource {

    @Inject
    OperatorTokens tokens;

    @POST
    public Response create(String body) {
        return Response.status(201).entity(tokens.create(Bodies.read(body, TokenName.class, "{\"name\"}").name())).build();
    }

    @GET
    public List<OperatorToken> list() {
        return tokens.list();
    }

    /** Revokes a token; the answer is the token as listed, with its revocation time. */
    @DELETE
    @Path("/{name}")
    public OperatorToken revoke(@PathParam("name") String name) {
        return tokens.revoke(name);
    }
}
