package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import mesh.api.ApiErrors;
import mesh.api.ServerRole;
import mesh.model.Node;
import mesh.store.MeshStore;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.ServerTrust;
import mesh.wire.JoinAnswer;
import mesh.wire.JoinRequest;

/**
 * JoinResource issues a joining node's agent certificate ({@code POST /v1/join}): the node's
 * installer, having pinned the mesh CA by the hash its join line carries, sends its name and public
 * key with the agent token {@code mesh node add} printed; the seat's controller, which holds the
 * CA's key file (MESH_CA_KEY), answers with a certificate for the node's name and its address as
 * the store has them. The token is the node's proof, so this is outside the operator API: no
 * operator token opens it, and it changes nothing in the store (docs/trust.md).
 */
@Path("/v1/join")
public class JoinResource {

    @Inject
    MeshController controller;

    @Inject
    MeshStore store;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response join(JoinRequest request, @HeaderParam("Authorization") String authorization) {
        if (!controller.serving()) {
            return ServerRole.startedAs(ServerRole.CONTROLLER)
                    ? ApiErrors.retryLater("the controller is starting; try again in a moment", 1)
                    : ApiErrors.error(404, "this process is not a controller", List.of());
        }
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return ApiErrors.error(401, "missing bearer token: send 'Authorization: Bearer <the node's agent token>'", List.of());
        }
        if (request == null || request.node() == null || request.publicKey() == null) {
            return ApiErrors.error(400, "a join needs the node's name and its public key (PEM)", List.of());
        }
        var issuer = ServerTrust.issuer();
        if (issuer.isEmpty()) {
            return ApiErrors.error(409, "this controller cannot issue certificates: it was started without the mesh CA's key"
                    + " (MESH_CA_KEY; the seat's controller has it, docs/trust.md)", List.of());
        }
        String presented = authorization.substring("Bearer ".length());
        Node node;
        String token;
        try {
            node = store.inTransaction(c -> store.node(c, request.node())).orElse(null);
            token = node == null ? null : store.inTransaction(c -> store.agentTokens(c)).get(node.name());
        } catch (RuntimeException e) {
            return ApiErrors.error(503, "the store cannot be read: " + e.getMessage(), List.of());
        }
        if (node == null || token == null || !MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8))) {
            return ApiErrors.error(401, "wrong bearer token: not the agent token of a node named '" + request.node()
                    + "' ('mesh node add' printed it, 'mesh node token NAME --rotate' makes a new one)", List.of());
        }
        java.security.PublicKey key;
        try {
            key = Pem.publicKey(request.publicKey(), "publicKey");
        } catch (IllegalArgumentException e) {
            return ApiErrors.error(400, e.getMessage(), List.of());
        }
        MeshCa ca = issuer.get();
        var cert = ca.certify(MeshCa.Role.AGENT, node.name(), List.of(node.name(), node.address()), key, Instant.now());
        return Response.ok(new JoinAnswer(Pem.text(cert) + Pem.text(ca.certificate()), Pem.text(ca.certificate()))).build();
    }
}
