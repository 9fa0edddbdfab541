package mesh.host;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import mesh.docker.EngineFailure;
import mesh.model.InvalidInput;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * HostApiErrors guards the agent's API: the bearer token first, then every refusal as a JSON body
 * {@code {"error": "...", "problems": [...]}} with its status, never a stack trace.
 */
public class HostApiErrors {

    /** ApiError is the body of every refused request. */
    public record ApiError(String error, List<String> problems) {
    }

    @Inject
    HostAgent agent;

    @ServerRequestFilter
    public Optional<Response> requireToken(ContainerRequestContext request) {
        if (!request.getUriInfo().getPath().startsWith("/v1/")) {
            return Optional.empty();
        }
        if (!agent.serving()) {
            return Optional.of(error(404, "this process is not a host agent", List.of()));
        }
        String header = request.getHeaderString("Authorization");
        byte[] expected = ("Bearer " + agent.settings().token()).getBytes(StandardCharsets.UTF_8);
        byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, given)) {
            return Optional.of(error(401, header == null
                    ? "missing bearer token: send 'Authorization: Bearer <MESH_HOST_TOKEN>'"
                    : "wrong bearer token for this host agent", List.of()));
        }
        return Optional.empty();
    }

    @ServerExceptionMapper
    public Response invalid(InvalidInput e) {
        return error(400, "invalid declaration: " + e.getMessage(), e.problems());
    }

    @ServerExceptionMapper
    public Response refused(HostAgent.Refusal e) {
        return error(e.status(), e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response engine(EngineFailure e) {
        return error(503, "the engine did not answer: " + e.getMessage(), List.of());
    }

    static Response error(int status, String message, List<String> problems) {
        return Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(new ApiError(message, problems)).build();
    }
}
