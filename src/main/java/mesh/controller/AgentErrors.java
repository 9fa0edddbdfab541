package mesh.controller;

import mesh.wire.CallFailure;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.api.ApiErrors;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * AgentErrors answers a call that needed a node's agent, which did not answer or refused
 * ({@link CallFailure}, its message naming the node), with a 503 and that message.
 * Unmapped, it was a 500 the CLI read as "is MESH_CONTROLLER a mesh controller?" (a
 * {@code mesh take --dry-run} while the target's agent was down). No Retry-After: the operator
 * decides when the node is back.
 */
public class AgentErrors {

    @ServerExceptionMapper
    public Response agentUnreachable(CallFailure e) {
        return ApiErrors.error(503, e.getMessage(), List.of());
    }
}
