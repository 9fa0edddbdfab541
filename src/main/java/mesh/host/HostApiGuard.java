package mesh.host;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mesh.api.ApiErrors;
import mesh.api.BearerToken;
import mesh.api.ServerRole;
import mesh.plan.SeatEpoch;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * HostApiGuard: the host agent's API answers, over HTTPS, only to its mesh's controller's client
 * certificate ({@link ControllerCertificate}), a take's ticket reads aside, and only in a host
 * agent; no bearer token is read. Over plain HTTP (MESH_PLAIN_HTTP, tests only) there is no
 * certificate to check: the agent takes MESH_HOST_TOKEN as bearer when it is set, else every call.
 */
public class HostApiGuard {

    @Inject
    HostAgent agent;

    @ServerRequestFilter
    public Optional<Response> requireToken(ContainerRequestContext request, io.vertx.core.http.HttpServerRequest http) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/v1/") || path.startsWith("/v1/mesh/") || path.equals("/v1/join")) {
            return Optional.empty();
        }
        if (!agent.serving()) {
            if (ServerRole.startedAs(ServerRole.HOST)) {
                return Optional.of(ApiErrors.retryLater("the host agent is starting; try again in a moment", 1));
            }
            return Optional.of(ApiErrors.error(404, mesh.wire.Reason.WRONG_SERVER, "this process is not a host agent", List.of()));
        }
        if (readsWithTicket(request, path)) {
            return Optional.empty();
        }
        String testToken = agent.settings().token();
        Optional<Response> refused = mesh.trust.ServerTrust.enabled() ? ControllerCertificate.check(http)
                : testToken == null ? Optional.empty() : BearerToken.check(request, testToken, "MESH_HOST_TOKEN", "host agent");
        return refused.isPresent() ? refused : deposed(request);
    }

    /** The controller's call judged by its epoch ({@link SeatEpochs}): a change from a deposed seat is refused (409). */
    private Optional<Response> deposed(ContainerRequestContext request) {
        SeatEpoch caller = SeatEpoch.ofHeaders(request.getHeaderString(SeatEpoch.EPOCH_HEADER),
                request.getHeaderString(SeatEpoch.SEAT_HEADER), request.getHeaderString(SeatEpoch.URL_HEADER));
        boolean change = !"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod());
        String refusal = agent.state().seats.hear(caller, change);
        return refusal == null ? Optional.empty()
                : Optional.of(ApiErrors.error(409, mesh.wire.Reason.DEPOSED, refusal, List.of()));
    }

    /**
     * Every answer of the agent's API names the newest seat it heard from ({@link SeatEpochs}), so that a deposed
     * controller learns it from any call, a look included, not only from a refused change (docs/seat.md).
     */
    @ServerResponseFilter
    public void nameNewestSeat(ContainerRequestContext request, ContainerResponseContext response) {
        if (!agent.serving() || !request.getUriInfo().getPath().startsWith("/v1/")) {
            return;
        }
        SeatEpoch newest = agent.state().seats.newest();
        if (newest.epoch() > 0) {
            response.getHeaders().putSingle(SeatEpoch.EPOCH_HEADER, Long.toString(newest.epoch()));
            response.getHeaders().putSingle(SeatEpoch.SEAT_HEADER, newest.seat());
            response.getHeaders().putSingle(SeatEpoch.URL_HEADER, newest.url());
        }
    }

    /** A volume's manifest, index, archive (a GET, or a POST naming the entries of a pass) or a file's ranges (a POST), read by a take's target with the source's read ticket for that module (docs/take.md). */
    static final Pattern TICKET_READ = Pattern.compile("/v1/volumes/([^/]+)/[^/]+/(manifest|archive|index|ranges)");

    private boolean readsWithTicket(ContainerRequestContext request, String path) {
        Matcher m = TICKET_READ.matcher(path);
        String header = request.getHeaderString("Authorization");
        boolean read = "GET".equals(request.getMethod()) || "POST".equals(request.getMethod()) && m.matches() && List.of("archive", "ranges").contains(m.group(2));
        if (!read || !m.matches() || header == null || !header.startsWith("Bearer ")) {
            return false;
        }
        return agent.takes().ticketValid(m.group(1), header.substring("Bearer ".length()));
    }
}
