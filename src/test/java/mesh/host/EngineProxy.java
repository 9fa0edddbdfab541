package mesh.host;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * EngineProxy is a real engine behind a unix socket the test controls: while answering, every
 * connection is forwarded to the engine's socket byte for byte; after {@link #stopAnswering()}, open
 * connections are cut and every new one is accepted and closed at once (counted), as an engine that
 * hangs up would. Hand-written because it is forty lines of the JDK's unix-socket channels, and a
 * library for it would be a test dependency for one class.
 */
final class EngineProxy implements AutoCloseable {

    private final ServerSocketChannel server;
    private final Path target;
    private final Path socket;
    private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean answering = true;

    EngineProxy(Path socket, Path target) throws IOException {
        this.socket = socket;
        this.target = target;
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread.ofVirtual().start(this::acceptAll);
    }

    /** The engine URL of the proxy, for MESH_HOST_ENGINE. */
    String url() {
        return "unix://" + socket;
    }

    /** Connections refused since the engine stopped answering: each one engine call (or a retry of one). */
    int refused() {
        return refused.get();
    }

    void stopAnswering() throws IOException {
        answering = false;
        for (SocketChannel c : open) {
            c.close();
        }
        open.clear();
    }

    void answerAgain() {
        refused.set(0);
        answering = true;
    }

    private void acceptAll() {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                if (!answering) {
                    refused.incrementAndGet();
                    client.close();
                    continue;
                }
                SocketChannel engine = SocketChannel.open(UnixDomainSocketAddress.of(target));
                open.add(client);
                open.add(engine);
                Thread.ofVirtual().start(() -> pipe(client, engine));
                Thread.ofVirtual().start(() -> pipe(engine, client));
            } catch (IOException e) {
                return;   // the proxy is closed
            }
        }
    }

    private static void pipe(SocketChannel from, SocketChannel to) {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (from.read(buffer) >= 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    to.write(buffer);
                }
                buffer.clear();
            }
        } catch (IOException e) {
            // one side went away: close both, below
        }
        try {
            from.close();
            to.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        stopAnswering();
        Files.deleteIfExists(socket);
    }
}
