package mesh.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import mesh.model.DeclarationJson;
import mesh.model.Poll;

/**
 * JsonHttp is mesh's one way of speaking JSON over HTTP, shared by both of its clients (the
 * controller asking the agents, the CLI asking the controller): the bearer token, the wait while a
 * server says it is starting (503 with Retry-After; a 503 without it, e.g. a failed store or
 * engine, is not waited out), the answer read leniently (a newer server may add fields), and a
 * refusal decoded into the server's own {@link ApiError}, and every failure a {@link CallFailure}. Each client
 * words its own failures ({@link Words}); the CLI keeps its own transport (its HttpURLConnection starts faster than
 * java.net.http, see ControllerClient), every other caller the one java.net.http transport; the protocol is written
 * here once.
 */
public final class JsonHttp {

    /** How often a starting server is asked again. */
    static final Duration RETRY = Duration.ofMillis(250);

    /** Transport is one HTTP round trip, made by the client's own HTTP stack. */
    @FunctionalInterface
    public interface Transport {
        Answer exchange(String method, String path, Map<String, String> headers, String body, Duration timeout)
                throws IOException, InterruptedException;
    }

    /** Answer is a server's status code, body (empty if none), and whether it said when to ask again (Retry-After). */
    public record Answer(int status, String body, boolean retryAfter) {
    }

    /**
     * Words is how a client words what went wrong for its reader (naming the node or the controller it asked); the
     * failure itself is always a {@link CallFailure}, whose kind, status and reason callers branch on.
     */
    public interface Words {
        /** The server could not be asked: not reachable, timed out, or the call was interrupted. */
        String unreachable(Exception cause);

        /** The server refused; {@code error} is its ApiError, or null if the body is not one. */
        String refused(Answer answer, ApiError error);

        /** The server said yes with a body that is not the JSON expected. */
        String unreadable(Answer answer, String detail);
    }

    private final Transport transport;
    private final String token;
    private final Words words;

    public JsonHttp(Transport transport, String token, Words words) {
        this.transport = transport;
        this.token = token;
        this.words = words;
    }

    public <T> T call(String method, String path, Object body, Class<T> answer, Duration timeout, Duration whileStarting) {
        return call(method, path, body, answer == null ? null : DeclarationJson.MAPPER.constructType(answer), timeout,
                whileStarting);
    }

    /**
     * Sends {@code body} (null: none) as JSON and reads the answer as {@code answer} (null, or an
     * empty body: null). A server that says it is starting is asked again until {@code whileStarting}
     * has passed; {@code timeout} bounds each round trip.
     */
    public <T> T call(String method, String path, Object body, JavaType answer, Duration timeout, Duration whileStarting) {
        String json = body == null ? null : DeclarationJson.write(body);
        Map<String, String> headers = new LinkedHashMap<>();
        if (token != null) {   // the controller calls its agents with its certificate, no token (docs/trust.md)
            headers.put("Authorization", "Bearer " + token);
        }
        headers.put("Accept", "application/json");
        if (json != null) {
            headers.put("Content-Type", "application/json");
        }
        var last = new Object() {
            Answer a;
        };
        try {
            Poll.interruptibly(whileStarting, RETRY, () -> {
                last.a = transport.exchange(method, path, headers, json, timeout);
                return last.a.status() == 503 && last.a.retryAfter() ? Poll.notYet("starting") : Poll.got(last.a);
            });
        } catch (IOException e) {
            throw unreachable(words, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(words, e);
        }
        Answer a = last.a;
        if (a.status() / 100 != 2) {
            throw refused(words, a);
        }
        if (answer == null || a.body().isEmpty()) {
            return null;
        }
        try {
            return DeclarationJson.MAPPER.readerFor(answer).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(a.body());
        } catch (JsonProcessingException e) {
            throw CallFailure.unreadable(a.status(), words.unreadable(a, e.getOriginalMessage()));
        }
    }

    /** A call that got no answer, in {@code words}. */
    public static CallFailure unreachable(Words words, Exception cause) {
        return CallFailure.unreachable(words.unreachable(cause), cause);
    }

    /** A refusal (not 2xx) in {@code words}, with its status and the reason of its {@link ApiError} (none: null). */
    public static CallFailure refused(Words words, Answer a) {
        ApiError error = apiError(a.body());
        return CallFailure.refused(a.status(), error == null ? null : error.reason(), words.refused(a, error));
    }

    /** The refusal's ApiError, or null if the body is not one (a proxy's page, an empty body). */
    static ApiError apiError(String body) {
        try {
            ApiError error = DeclarationJson.MAPPER.readValue(body, ApiError.class);
            return error == null || error.error() == null ? null : error;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Why a request got no answer, in words (never an exception's class name): what an operator
     * reads after "did not answer" or "cannot reach".
     */
    public static String why(Exception e) {
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (e instanceof java.net.http.HttpTimeoutException || e instanceof java.net.SocketTimeoutException) {
            return "timed out";
        }
        if (e instanceof java.net.UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof java.net.NoRouteToHostException) {
            return "no route to host";
        }
        return e.getMessage() == null ? "the connection failed" : "the connection failed: " + e.getMessage();
    }
}
