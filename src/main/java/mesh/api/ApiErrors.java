package mesh.api;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import mesh.docker.EngineFailure;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.NotFound;
import mesh.plan.PlanFailure;
import mesh.store.StoreFailure;
import mesh.wire.ApiError;
import mesh.wire.Reason;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * ApiErrors turns every refusal of the host's and the controller's APIs into
 * {@code {"error": "...", "problems": [...], "reason": "..."}} with its status, never a stack trace. It is the one
 * place that knows which failure is which HTTP status: services throw typed failures
 * ({@link InvalidInput} 400, {@link NotFound} 404, {@link Conflict} 409, {@link PlanFailure} 409,
 * {@link StoreFailure} and {@link EngineFailure} 503).
 */
public class ApiErrors {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ApiErrors.class);

    @ServerExceptionMapper
    public Response invalid(InvalidInput e) {
        return error(400, e.getMessage(), e.problems());
    }

    @ServerExceptionMapper
    public Response notFound(NotFound e) {
        return error(404, e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response conflict(Conflict e) {
        return error(409, e instanceof mesh.store.PushBusy ? Reason.BUSY
                : e instanceof mesh.store.ControllerFenced ? Reason.FENCED : Reason.CONFLICT, e.getMessage(), List.of());
    }

    /** A refusal that still carries its own status: the host agent's, until its services throw typed failures too. */
    @ServerExceptionMapper
    public Response refused(Refusal e) {
        return error(e.status(), e.reason(), e.getMessage(), e.problems());
    }

    @ServerExceptionMapper
    public Response unplannable(PlanFailure e) {
        return error(409, Reason.PLAN_FAILED, "the plan failed, nothing was sent: " + e.getMessage(), e.problems());
    }

    /** A request body that is not the JSON expected: named by field, as for declarations. */
    @ServerExceptionMapper
    public Response unreadable(com.fasterxml.jackson.core.JsonProcessingException e) {
        return error(400, e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException
                ? Reason.UNKNOWN_FIELD : Reason.INVALID, mesh.model.DeclarationJson.describe(e), List.of());
    }

    /**
     * A call the API does not have (404), a method a path does not take (405), and the REST layer's
     * other refusals: named by method and path, never answered with an empty body.
     */
    @ServerExceptionMapper
    public Response noSuchCall(jakarta.ws.rs.WebApplicationException e, io.vertx.core.http.HttpServerRequest request) {
        int status = e.getResponse() == null ? 400 : e.getResponse().getStatus();
        // the path as sent, before the HTTP layer decoded and normalised it: what the caller wrote
        String path = request.uri() == null ? "" : request.uri().replaceAll("[?#].*$", "");
        String message = switch (status) {
            case 404 -> "no such call: " + request.method() + " " + path;
            case 405 -> request.method() + " is not allowed on " + path;
            default -> request.method() + " " + path + ": refused (" + status + ")";
        };
        return error(status, status == 404 || status == 405 ? Reason.NO_SUCH_CALL : Reason.of(status), message, List.of());
    }

    @ServerExceptionMapper
    public Response engine(EngineFailure e) {
        return error(503, "the engine did not answer: " + e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response store(StoreFailure e) {
        return error(503, e.getMessage(), List.of());
    }

    /**
     * Any other failure: a bug, said as one (500) with the call it failed on, in the JSON error body;
     * its type and stack go to the server's log, not to the caller.
     */
    @ServerExceptionMapper
    public Response internal(RuntimeException e, io.vertx.core.http.HttpServerRequest request) {
        String path = request.uri() == null ? "" : request.uri().replaceAll("[?#].*$", "");
        LOG.errorf(e, "%s %s failed", request.method(), path);
        return error(500, "internal error on " + request.method() + " " + path + "; the server's log says more", List.of());
    }

    /**
     * A 503 that says when to ask again (Retry-After, seconds): the one answer mesh's own clients
     * retry. A server that is starting says it; a store or engine that failed does not, so a push is
     * never held up waiting for an engine that is down.
     */
    public static Response retryLater(String message, int seconds) {
        return Response.status(503).type(MediaType.APPLICATION_JSON).header("Retry-After", seconds)
                .entity(new ApiError(message, List.of(), Reason.STARTING)).build();
    }

    /** A refusal whose reason is the one its status implies ({@link Reason#of}). */
    public static Response error(int status, String message, List<String> problems) {
        return error(status, Reason.of(status), message, problems);
    }

    public static Response error(int status, Reason reason, String message, List<String> problems) {
        return Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(new ApiError(message, problems, reason)).build();
    }
}
