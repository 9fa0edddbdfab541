package mesh.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * DotSegments refuses, on both APIs, a request whose path has a {@code .} or {@code ..} segment,
 * percent-encoded or not. The HTTP layer removes such segments before routing (RFC 3986 makes
 * {@code %2E} a dot), so {@code PUT /v1/mesh/nodes/ace/modules/%2E%2E} would otherwise reach
 * {@code PUT /v1/mesh/nodes/ace}, another call; no mesh name is {@code .} or {@code ..}.
 */
public class DotSegments {

    private static final Pattern DOT_SEGMENT = Pattern.compile("(?i)/(\\.|%2e){1,2}(/|$)");

    @ServerRequestFilter(preMatching = true)
    public Optional<Response> refuseDotSegments(HttpServerRequest request) {
        String raw = request.uri() == null ? "" : request.uri().replaceAll("[?#].*$", "");
        if (!DOT_SEGMENT.matcher(raw).find()) {
            return Optional.empty();
        }
        return Optional.of(ApiErrors.error(400, "a name cannot be '.' or '..': " + request.method() + " " + raw,
                List.of()));
    }
}
