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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import mesh.wire.SecretValue;
import mesh.wire.SecretView;

/** SecretResource is the secrets' API ({@code mesh secret set|list|remove|rotate-key}); see {@link MeshSecrets}. */
@Path("/v1/mesh/secrets")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class SecretResource {

    @Inject
    MeshSecrets secrets;

    @GET
    public List<SecretView> list(@QueryParam("module") String module) {
        return secrets.list(module == null || module.isBlank() ? null : module);
    }

    @PUT
    @Path("/{module}/{name}")
    public SecretView set(@PathParam("module") String module, @PathParam("name") String name, String body) {
        return secrets.set(module, name, Bodies.read(body, SecretValue.class, "{\"value\"}").value());
    }

    @DELETE
    @Path("/{module}/{name}")
    public SecretView remove(@PathParam("module") String module, @PathParam("name") String name) {
        return secrets.remove(module, name);
    }

    @POST
    @Path("/rotate-key")
    public Map<String, Integer> rotateKey() {
        return Map.of("resealed", secrets.rotateKey());
    }
}
