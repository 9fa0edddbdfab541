package mesh.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import mesh.wire.JsonHttp;

/**
 * HttpTransport is the one java.net.http transport of every caller of the mesh's APIs but the CLI (the controller
 * asking its agents, the installer asking a controller and joining a mesh, an agent reading a copy's source): one
 * JDK client with the caller's TLS (the mesh CA, a client certificate, a pinned CA, or none for plain HTTP) and its
 * connect timeout, each request bounded by its own. What a call says and how its failure reads is {@link JsonHttp}'s
 * and the caller's words; the CLI keeps its HttpURLConnection (it starts faster: docs/benchmarks.md), and both end in
 * the same {@link mesh.wire.CallFailure}. {@code ClientFailuresTest} fails on an HTTP client built anywhere else for
 * the mesh's APIs.
 */
public final class HttpTransport {

    /** How long a caller of an agent or a controller waits for the connection, unless it says otherwise. */
    public static final Duration CONNECT = Duration.ofSeconds(3);

    private final HttpClient http;

    /** A transport over {@code tls} (null: plain HTTP, or the JDK's default TLS), connecting within {@code connect}. */
    public HttpTransport(SSLContext tls, Duration connect) {
        this(tls, connect, null);
    }

    /** The same, speaking {@code version} only (null: the JDK's choice). */
    public HttpTransport(SSLContext tls, Duration connect, HttpClient.Version version) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(connect);
        if (tls != null) {
            b.sslContext(tls);
        }
        if (version != null) {
            b.version(version);
        }
        this.http = b.build();
    }

    /** JsonHttp's round trips to the server at {@code base} (its URL without a path). */
    public JsonHttp.Transport to(String base) {
        String root = base.replaceAll("/+$", "");
        return (method, path, headers, body, timeout) -> exchange(URI.create(root + path), method, headers, body, timeout,
                heard -> {
                });
    }

    /**
     * One round trip as {@link JsonHttp} asks it: {@code method} to {@code uri} with {@code headers} and {@code body}
     * (null: none), bounded by {@code timeout}; {@code heard} sees the answer's headers before it is read.
     */
    public JsonHttp.Answer exchange(URI uri, String method, Map<String, String> headers, String body, Duration timeout,
                                    Consumer<HttpHeaders> heard) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
        headers.forEach(b::header);
        HttpResponse<String> r = http.send(b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        heard.accept(r.headers());
        return new JsonHttp.Answer(r.statusCode(), r.body(), r.headers().firstValue("Retry-After").isPresent());
    }

    /** Any request, its answer read by {@code body}: a stream of lines, an archive, an answer discarded. */
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws IOException, InterruptedException {
        return http.send(request, body);
    }

    /** Takes no new calls; those under way finish (a client replaced after a certificate rotation). */
    public void shutdown() {
        http.shutdown();
    }
}
