package mesh.controller;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import mesh.model.Node;

/**
 * FakeLineAgent plays node n2's agent for one streamed call (the JDK's HTTP server on 127.0.0.1): it answers
 * {@code path} with {@code status} and {@code lines}, one every {@code every}, then holds the stream open until it is
 * closed (as a SIGSTOPped agent does: its connection stays open) or ends it. For the tests of what reads such a call.
 */
final class FakeLineAgent implements AutoCloseable {

    private final HttpServer server;
    private final CountDownLatch release = new CountDownLatch(1);

    FakeLineAgent(String path, int status, List<String> lines, Duration every, boolean thenHold) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(path, exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (String line : lines) {
                    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(every.toMillis());
                }
                if (thenHold) {
                    release.await();
                }
            } catch (InterruptedException | IOException e) {
                // the reader closed its end: done
            }
        });
        server.setExecutor(r -> Thread.ofVirtual().start(r));
        server.start();
    }

    /** The agent as the controller knows it: node n2 at this server. */
    Node node() {
        return new Node("n2", "127.0.0.1", "http://127.0.0.1:" + server.getAddress().getPort(), null);
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
