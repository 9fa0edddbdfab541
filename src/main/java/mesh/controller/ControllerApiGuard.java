package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import mesh.api.ApiErrors;
import mesh.api.BearerToken;
import mesh.api.ServerRole;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * ControllerApiGuard: the operator's API answers only to an operator token that is not revoked
 * ({@link OperatorTokens}), and only in a controller. The accepted token's name is who the
 * request is ({@link Operator}), for the audit trail. A controller an agent refused as deposed (a promoted seat
 * reached it first, {@link AgentClient#deposed}) says so to every verb and changes nothing (docs/seat.md); one whose
 * own store a newer controller claimed is fenced by that store instead (writes refused, reads answered).
 */
public class ControllerApiGuard {

    @Inject
    MeshController controller;

    @Inject
    OperatorTokens tokens;

    @Inject
    Operator operator;

    @Inject
    AgentClient agents;

    @Inject
    mesh.store.MeshStore store;

    @ServerRequestFilter
    public Optional<Response> requireToken(ContainerRequestContext request) {
        if (!request.getUriInfo().getPath().startsWith("/v1/mesh/")) {
            return Optional.empty();
        }
        if (!controller.serving()) {
            if (ServerRole.startedAs(ServerRole.CONTROLLER)) {
                return Optional.of(ApiErrors.retryLater("the controller is starting; try again in a moment", 1));
            }
            // an operator whose MESH_CONTROLLER points at an agent is told so (the CLI words it for them)
            boolean agent = ServerRole.startedAs(ServerRole.HOST);
            return Optional.of(ApiErrors.error(404, agent ? mesh.wire.Reason.HOST_AGENT : mesh.wire.Reason.WRONG_SERVER,
                    agent ? "this is a host agent, not a controller" : "this process is not a controller", List.of()));
        }
        String presented = BearerToken.presented(request);
        if (presented == null) {
            return Optional.of(BearerToken.missing("MESH_TOKEN, an operator token"));
        }
        if (presented.isEmpty()) {
            return Optional.of(BearerToken.refused("wrong bearer token: the Authorization header must be 'Bearer <token>'"));
        }
        OperatorTokens.Verdict verdict = tokens.authenticate(presented);
        if (verdict.refusal() != null) {
            return Optional.of(BearerToken.refused(verdict.refusal()));
        }
        operator.accepted(verdict.name());
        String deposed = agents.deposed();
        // a newer controller on this same store (not a promoted seat): the store's fence refuses the writes, reads go on
        return deposed == null || store.claimedByNewer() ? Optional.empty() : Optional.of(ApiErrors.error(409, mesh.wire.Reason.DEPOSED,
                "this controller was deposed by a promoted seat, and changes nothing: " + deposed, List.of()));
    }
}
