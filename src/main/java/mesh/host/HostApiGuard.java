package mesh.host;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import mesh.api.ApiErrors;
import mesh.api.BearerToken;
import mesh.api.ServerRole;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** HostApiGuard: the host agent's API answers only to its bearer token, and only in a host agent. */
public class HostApiGuard {

    @Inject
    HostAgent agent;

    @ServerRequestFilter
    public Optional<Response> requireToken(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/v1/") || path.startsWith("/v1/mesh/")) {
            return Optional.empty();
        }
        if (!agent.serving()) {
            if (ServerRole.startedAs(ServerRole.HOST)) {
                return Optional.of(ApiErrors.retryLater("the host agent is starting; try again in a moment", 1));
            }
            return Optional.of(ApiErrors.error(404, "this process is not a host agent", List.of()));
        }
        return BearerToken.check(request, agent.settings().token(), "MESH_HOST_TOKEN", "host agent");
    }
}
