package mesh.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * BearerToken reads {@code Authorization: Bearer …}: {@link #check} compares it in constant time
 * with the one token of a host agent; the controller, which has several named operator tokens,
 * takes the token with {@link #presented} and compares hashes (mesh.controller.OperatorTokens).
 */
public final class BearerToken {

    private BearerToken() {
    }

    /** Empty when the request carries the token; else the 401 to answer with. */
    public static Optional<Response> check(ContainerRequestContext request, String token, String variable, String who) {
        String header = request.getHeaderString("Authorization");
        byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
        if (MessageDigest.isEqual(expected, given)) {
            return Optional.empty();
        }
        return Optional.of(ApiErrors.error(401, header == null
                ? "missing bearer token: send 'Authorization: Bearer <" + variable + ">'"
                : "wrong bearer token for this " + who, List.of()));
    }

    /** The token an {@code Authorization: Bearer TOKEN} header carries; null without the header, "" for another form. */
    public static String presented(ContainerRequestContext request) {
        String header = request.getHeaderString("Authorization");
        if (header == null) {
            return null;
        }
        return header.startsWith("Bearer ") ? header.substring("Bearer ".length()) : "";
    }

    /** The 401 for a request with no token; {@code variable} names where the caller's token is set. */
    public static Response missing(String variable) {
        return ApiErrors.error(401, "missing bearer token: send 'Authorization: Bearer <" + variable + ">'", List.of());
    }

    /** The 401 for a token that is not accepted, saying why. */
    public static Response refused(String why) {
        return ApiErrors.error(401, why, List.of());
    }
}
