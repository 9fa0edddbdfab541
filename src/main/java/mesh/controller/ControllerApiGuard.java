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

/** ControllerApiGuard: the operator's API answers only to the operator token, and only in a controller. */
public class ControllerApiGuard {

    @Inject
    MeshController controller;

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
            return Optional.of(ApiErrors.error(404, ServerRole.startedAs(ServerRole.HOST)
                    ? "this is a host agent, not a controller" : "this process is not a controller", List.of()));
        }
        return BearerToken.check(request, controller.settings().token(), "MESH_CONTROLLER_TOKEN", "controller");
    }
}
