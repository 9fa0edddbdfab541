package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import mesh.api.ApiErrors;
import mesh.api.ServerRole;
import mesh.model.Node;
import mesh.plan.JoinTokenRule;
import mesh.store.MeshStore;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.ServerTrust;
import mesh.wire.JoinAnswer;
import mesh.wire.JoinRequest;

/**
 * JoinResource issues a joining node's agent certificate ({@code POST /v1/join}): the node's
 * installer, having pinned the mesh CA by the hash its join line carries, sends its name and public
 * key with the one-time join token {@code mesh node add} printed; the seat's controller, which
 * holds the CA's key file (MESH_CA_KEY), answers with a certificate for the node's name and its
 * address as the store has them, and spends the token ({@link JoinTokenRule}: once, within 24 h).
 * The token is the node's proof, so this is outside the operator API: no operator token opens it.
 * A refused join changes nothing in the store (docs/trust.md).
 */
@Path("/v1/join")
public class JoinResource {

    @Inject
    MeshController controller;

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response join(JoinRequest request, @HeaderParam("Authorization") String authorization) {
        if (!controller.serving()) {
            return ServerRole.startedAs(ServerRole.CONTROLLER)
                    ? ApiErrors.retryLater("the controller is starting; try again in a moment", 1)
                    : ApiErrors.error(404, mesh.wire.Reason.WRONG_SERVER, "this process is not a controller", List.of());
        }
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return ApiErrors.error(401, "missing join token: send 'Authorization: Bearer <the node's join token>'"
                    + " (its join line has it)", List.of());
        }
        if (request == null || request.node() == null || request.publicKey() == null) {
            return ApiErrors.error(400, "a join needs the node's name and its public key (PEM)", List.of());
        }
        var issuer = ServerTrust.issuer();
        if (issuer.isEmpty()) {
            return ApiErrors.error(409, "this controller cannot issue certificates: it was started without the mesh CA's key"
                    + " (MESH_CA_KEY; the seat's controller has it, docs/trust.md)", List.of());
        }
        java.security.PublicKey key;
        try {
            key = Pem.publicKey(request.publicKey(), "publicKey");
        } catch (IllegalArgumentException e) {
            return ApiErrors.error(400, e.getMessage(), List.of());
        }
        byte[] presented = OperatorTokens.hash(authorization.substring("Bearer ".length()));
        MeshCa ca = issuer.get();
        try {
            return store.inTransaction(c -> {
                Node node = store.node(c, request.node()).orElse(null);
                MeshStore.JoinTokenRow row = node == null ? null : store.joinToken(c, node.name()).orElse(null);
                if (node == null || row == null) {
                    return ApiErrors.error(401, "wrong join token: there is no node named '" + request.node()
                            + "' ('mesh node add' adds it and prints its join line)", List.of());
                }
                String refusal = JoinTokenRule.refusal(node.name(), row.hash(), row.made(), presented, row.now());
                if (refusal != null) {
                    return ApiErrors.error(401, refusal, List.of());
                }
                var cert = ca.certify(MeshCa.Role.AGENT, node.name(), List.of(node.name(), node.address()), key, Instant.now());
                store.spendJoinToken(c, node.name());
                audit.record(c, "node join", AuditText.nodeJoined(node.name()));
                return Response.ok(new JoinAnswer(Pem.text(cert) + Pem.text(ca.certificate()), Pem.text(ca.certificate())))
                        .build();
            });
        } catch (mesh.store.StoreFailure e) {
            return ApiErrors.error(503, e.getMessage(), List.of());
        }
    }
}
