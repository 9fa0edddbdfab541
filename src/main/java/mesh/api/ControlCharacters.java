package mesh.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * ControlCharacters refuses, on both APIs, a request whose path segment or query value holds a NUL
 * or another control character ({@code %00}-{@code %1F}, {@code %7F}), naming the segment or the
 * parameter. No mesh name holds one, and PostgreSQL cannot store a NUL in text: let through,
 * {@code DELETE /v1/mesh/nodes/g14%00} reached the store and came back as "the store failed" (503).
 */
public class ControlCharacters {

    static final Pattern CONTROL = Pattern.compile("(?i)%(0[0-9a-f]|1[0-9a-f]|7f)|[\\x00-\\x1f\\x7f]");

    @ServerRequestFilter(preMatching = true)
    public Optional<Response> refuseControlCharacters(HttpServerRequest request) {
        String problem = problem(request.uri() == null ? "" : request.uri());
        return problem == null ? Optional.empty()
                : Optional.of(ApiErrors.error(400, problem + ": " + request.method() + " " + request.uri(), List.of()));
    }

    /** What in a request's URI (as sent) holds a control character, or null. */
    static String problem(String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        for (String segment : path.split("/")) {
            Matcher m = CONTROL.matcher(segment);
            if (m.find()) {
                return "the path segment '" + segment + "' holds " + what(m.group()) + ", which no mesh name can";
            }
        }
        if (q >= 0) {
            for (String pair : uri.substring(q + 1).split("&")) {
                Matcher m = CONTROL.matcher(pair);
                if (m.find()) {
                    return "the query parameter " + pair.split("=", 2)[0] + " holds " + what(m.group());
                }
            }
        }
        return null;
    }

    private static String what(String found) {
        int c = found.length() == 1 ? found.charAt(0) : Integer.parseInt(found.substring(1), 16);
        return c == 0 ? "a NUL character (%00)" : "a control character (%" + String.format(Locale.ROOT, "%02X", c) + ")";
    }
}
