package mesh.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/** BearerToken checks {@code Authorization: Bearer …} in constant time. */
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
}
