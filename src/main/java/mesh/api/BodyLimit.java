package mesh.api;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import mesh.model.DeclarationJson;
import mesh.wire.ApiError;
import mesh.wire.RequestLimits;

/**
 * BodyLimit answers a request whose body is over {@link RequestLimits#MAX_BODY_BYTES} with a 413
 * and the JSON error body of every refusal, naming the size and the limit. Left to the HTTP layer
 * (its upload limit, which runs just after this), the 413 had an empty body and the connection was
 * cut while the client still sent, so a client saw "cannot reach". A body up to a few times the
 * limit is read and dropped first, so the client gets to read the answer; a larger one is cut.
 */
@ApplicationScoped
public class BodyLimit {

    /** Beyond this a body is not read to its end: the answer is sent and the connection closed. */
    static final long DRAIN_AT_MOST = 8 * RequestLimits.MAX_BODY_BYTES;

    void install(@Observes Router router) {
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(this::check);
    }

    void check(RoutingContext ctx) {
        long length = length(ctx.request().getHeader("Content-Length"));
        if (length <= RequestLimits.MAX_BODY_BYTES) {
            ctx.next();
            return;
        }
        HttpServerRequest request = ctx.request();
        String body = DeclarationJson.write(new ApiError(RequestLimits.tooLarge(length), List.of(), mesh.wire.Reason.TOO_LARGE));
        if (length > DRAIN_AT_MOST || request.isEnded()) {
            answer(ctx, body, true);
            return;
        }
        request.handler(chunk -> { });
        request.endHandler(end -> answer(ctx, body, false));
        request.exceptionHandler(e -> ctx.response().close());
        request.resume();
    }

    private static void answer(RoutingContext ctx, String body, boolean close) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(413).putHeader("Content-Type", "application/json");
        if (close) {
            ctx.response().putHeader("Connection", "close");
            ctx.response().endHandler(v -> ctx.request().connection().close());
        }
        ctx.response().end(body);
    }

    /** The Content-Length given, -1 when none; an unreadable one counts as over any limit. */
    static long length(String header) {
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
