package mesh.bundle;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Arrays;

/**
 * LyingRegistry is a real HTTP server in front of a real registry that passes GET requests through
 * and lies in one way, for what a registry itself never does (Distribution checks every digest on
 * upload, so a truncated or altered blob cannot be stored in it): TRUNCATE sends half of each blob
 * over 1 KiB (a layer, not a config) and closes the connection, though its Content-Length promised all of it; ALTER serves each
 * manifest with one byte added (Content-Length consistent), under the digest that was asked for.
 */
public final class LyingRegistry implements AutoCloseable {

    public enum Lie { TRUNCATE, ALTER }

    private final HttpServer server;
    private final String upstream;
    private final Lie lie;

    public LyingRegistry(String upstream, Lie lie) throws IOException {
        this.upstream = upstream;
        this.lie = lie;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange x) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(upstream + x.getRequestURI()).toURL().openConnection();
        c.setRequestMethod(x.getRequestMethod());
        x.getRequestHeaders().forEach((k, v) -> {
            if (k.equalsIgnoreCase("Accept")) {
                c.setRequestProperty(k, String.join(",", v));
            }
        });
        int status = c.getResponseCode();
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        byte[] body = in == null ? new byte[0] : in.readAllBytes();
        for (String h : new String[] {"Content-Type", "Docker-Content-Digest"}) {
            if (c.getHeaderField(h) != null) {
                x.getResponseHeaders().set(h, c.getHeaderField(h));
            }
        }
        String path = x.getRequestURI().getPath();
        if (status == 200 && lie == Lie.ALTER && path.contains("/manifests/")) {
            body = Arrays.copyOf(body, body.length + 1);
            body[body.length - 1] = '\n';
        }
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        OutputStream out = x.getResponseBody();
        if (status == 200 && lie == Lie.TRUNCATE && path.contains("/blobs/") && body.length > 1024) {
            out.write(body, 0, body.length / 2);
            out.flush();
            x.close(); // fewer bytes than promised: the server drops the connection
            return;
        }
        out.write(body);
        out.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
