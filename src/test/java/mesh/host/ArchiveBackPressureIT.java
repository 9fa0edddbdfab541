package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import mesh.trust.MeshCa;
import mesh.trust.TlsDir;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import mesh.testbed.PackagedMesh;
import mesh.testbed.TestbedNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * ArchiveBackPressureIT: a source agent run as installed keeps its memory bounded while a slow reader drains a
 * 320 MB archive (docs/take.md, "Deadlines"). The agent is started through {@link mesh.testbed.Launcher}, the
 * launcher mesh install writes, with the serve flags of {@code mesh/serve-flags.properties} ({@code -Xmx64m},
 * which caps direct buffers at 64 MB too), not with a plain {@code java -jar}: the old archive endpoint
 * passed under {@code java -jar} and died of {@code OutOfMemoryError: Cannot reserve … direct buffer memory}
 * under these flags. It serves HTTPS with its certificate of a test CA, as an installed agent does; it runs in
 * n1's network namespace; the reader sleeps between its reads, so the archive is
 * written far faster than it is read. Also: refusals before the stream are still JSON errors, and lifting the
 * fence cuts a running archive (the reader sees a broken stream, tar ends).
 *
 * <p>{@code -Darchive.app=DIR} runs the same check against another packaged app (an older build), to show
 * the difference; the printed line has the agent's peak resident memory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArchiveBackPressureIT {

    static final int MB = 320;
    static final String MODULE = "bp";

    Path state;
    Path log;
    Process agent;
    URI base;
    SSLContext controllerTls;

    @BeforeAll
    void raiseAnAgentAsInstalled() throws Exception {
        TestbedNodes.Node n1 = TestbedNodes.up(1).get(0);
        Path work = Files.createTempDirectory("mesh-bp-");
        String other = System.getProperty("archive.app");
        Path app = other == null ? PackagedMesh.copyApp(work) : Path.of(other);
        state = work.resolve("state");
        Path volume = Files.createDirectories(state.resolve("volumes").resolve(MODULE + "_data"));
        byte[] block = new byte[1024 * 1024];
        new Random(20).nextBytes(block);
        try (OutputStream out = Files.newOutputStream(volume.resolve("big.bin"))) {
            for (int i = 0; i < MB; i++) {
                block[i % block.length] ^= (byte) i;
                out.write(block);
            }
        }
        int port = PackagedMesh.freePort();
        base = URI.create("https://" + n1.address() + ":" + port);
        TlsDir files = new TlsDir(work.resolve("tls"));
        Instant now = Instant.now();
        MeshCa ca = files.ensureCa("bp-it", now);
        files.ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER, List.of("127.0.0.1"), now);
        files.ensureIssued(ca, "bp-node", MeshCa.Role.AGENT, "bp-node", List.of("bp-node", n1.address()), now);
        controllerTls = files.clientContext("controller");
        assertTrue(serveFlags().contains("-Xmx64m"), "the agent's launcher flags: " + serveFlags());
        List<String> command = mesh.testbed.Launcher.installed(app).command(n1.name(), List.of("host", "serve"));
        log = PackagedMesh.buildDir().resolve("archive-back-pressure").resolve("agent-" + System.nanoTime() + ".log");
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MESH_"));
        pb.environment().put("MESH_HOST_NODE", "bp-node");
        pb.environment().put("MESH_HOST_LISTEN", n1.address() + ":" + port);
        pb.environment().put("MESH_HOST_STATE_DIR", state.toString());
        pb.environment().put("MESH_HOST_INTERVAL", "5s");
        pb.environment().put("MESH_HOST_ENGINE", n1.dockerHost());
        pb.environment().putAll(files.serveEnv("bp-node"));   // TLS, as an installed agent serves
        agent = pb.start();
        PackagedMesh.await("the agent answers", Duration.ofSeconds(60), () -> {
            assertTrue(agent.isAlive(), () -> "the agent exited: " + read(log));
            try {
                return call("GET", "/v1/status", null).status() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    /** The JVM flags the launcher gives {@code mesh host serve}: the {@code serve} line, then the {@code host} line. */
    static List<String> serveFlags() throws IOException {
        Properties p = new Properties();
        try (InputStream in = ArchiveBackPressureIT.class.getClassLoader().getResourceAsStream("mesh/serve-flags.properties")) {
            p.load(in);
        }
        List<String> flags = new ArrayList<>(Arrays.asList(p.getProperty("serve").trim().split("\\s+")));
        flags.addAll(Arrays.asList(p.getProperty("host").trim().split("\\s+")));
        return flags;
    }

    @AfterAll
    void tearDown() throws Exception {
        if (agent != null && agent.isAlive()) {
            agent.destroyForcibly();
            agent.waitFor();
        }
        if (state != null) {
            PackagedMesh.deleteTree(state.getParent());
        }
    }

    @Test
    @Order(1)
    void refusalsBeforeTheStreamAreStillJsonErrors() throws Exception {
        Answer unfenced = call("GET", "/v1/volumes/bp/data/archive?kind=process", null);
        assertEquals(409, unfenced.status(), unfenced.body());
        assertTrue(unfenced.body().startsWith("{\"error\":") && unfenced.body().contains("is not fenced here"), unfenced.body());
        assertEquals(200, call("PUT", "/v1/fences/bp", "{\"epoch\": 3}").status());
        Answer stranger = anonymous("/v1/volumes/bp/data/archive?kind=process", "not-a-ticket");
        assertEquals(401, stranger.status(), stranger.body());
        assertTrue(stranger.body().contains("\"error\""), stranger.body());
        Answer missing = call("GET", "/v1/volumes/bp/nothing/archive?kind=process", null);
        assertEquals(404, missing.status(), missing.body());
        assertTrue(missing.body().contains("has no process volume nothing"), missing.body());
    }

    /** 320 MB read at a few MB/s by a reader that sleeps: the agent stays up, its peak memory bounded. */
    @Test
    @Order(2)
    void aSlowReaderGetsTheWholeArchiveAndTheAgentsMemoryStaysBounded() throws Exception {
        HttpsURLConnection c = open("/v1/volumes/bp/data/archive?kind=process");
        assertEquals(200, c.getResponseCode());
        assertEquals("application/x-tar", c.getContentType());
        Process list = new ProcessBuilder("tar", "--list", "--file=-").redirectErrorStream(true).start();
        CompletableFuture<String> names = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, PackagedMesh.OWN_THREAD);
        long started = System.nanoTime();
        long bytes = 0;
        Thread.sleep(3_000);   // the reader takes nothing at first: a writer without back-pressure queues it all
        try (InputStream in = c.getInputStream(); OutputStream tar = list.getOutputStream()) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                tar.write(buffer, 0, n);
                bytes += n;
                if (bytes / buffer.length % 4 == 0) {
                    Thread.sleep(2);
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(0, list.waitFor(), names.join());
        String peak = status("VmHWM");
        System.out.printf("archive of %d MB read slowly in %.1f s (%.1f MB/s); agent alive %s, peak RSS %s%n",
                MB, seconds, bytes / 1e6 / seconds, agent.isAlive(), peak);
        assertTrue(names.join().contains("./big.bin"), names.join());
        assertTrue(bytes > MB * 1024L * 1024L, "the whole archive: " + bytes + " bytes");
        assertTrue(agent.isAlive(), "the agent died: " + read(log));
        assertFalse(read(log).contains("OutOfMemoryError"), read(log));
    }

    /** A fence lifted while its archive is read cuts that archive: the reader sees a broken stream, tar ends. */
    @Test
    @Order(3)
    void liftingTheFenceCutsARunningArchive() throws Exception {
        HttpsURLConnection c = open("/v1/volumes/bp/data/archive?kind=process");
        assertEquals(200, c.getResponseCode());
        long bytes = 0;
        try (InputStream in = c.getInputStream()) {
            bytes += in.readNBytes(1024 * 1024).length;
            assertEquals(200, call("DELETE", "/v1/fences/bp?epoch=3", null).status());
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            IOException broke = assertThrows(IOException.class, () -> {
                byte[] buffer = new byte[64 * 1024];
                while (System.nanoTime() < until) {
                    if (in.read(buffer) < 0) {
                        return;   // a clean end: the cut did not show, which fails the test
                    }
                }
            }, "the archive went on after the fence was lifted");
            System.out.println("cut after " + bytes + "+ bytes: " + broke);
        }
        PackagedMesh.await("tar ends on the source", Duration.ofSeconds(10), () -> !tarRuns());
        assertTrue(agent.isAlive());
    }

    /** A call with the controller's certificate, as the controller makes it. */
    /** A reader that goes away in the middle (its connection closed) ends the archive's tar on the source. */
    @Test
    @Order(4)
    void aReaderThatGoesAwayEndsTar() throws Exception {
        assertEquals(200, call("PUT", "/v1/fences/bp", "{\"epoch\": 4}").status());
        HttpsURLConnection c = open("/v1/volumes/bp/data/archive?kind=process");
        assertEquals(200, c.getResponseCode());
        InputStream in = c.getInputStream();
        assertEquals(1024 * 1024, in.readNBytes(1024 * 1024).length);
        assertTrue(tarRuns(), "tar runs while the archive is read");
        c.disconnect();   // closes the socket: the agent sees its reader gone
        PackagedMesh.await("tar ends on the source", Duration.ofSeconds(20), () -> !tarRuns());
        assertTrue(agent.isAlive());
        assertEquals(200, call("DELETE", "/v1/fences/bp?epoch=4", null).status());
    }

    private HttpsURLConnection open(String path) throws IOException {
        HttpsURLConnection c = (HttpsURLConnection) base.resolve(path).toURL().openConnection();
        c.setSSLSocketFactory(controllerTls.getSocketFactory());
        c.setReadTimeout(120_000);
        return c;
    }

    /** A call with no client certificate, a bearer only: what a target agent with a read ticket makes. */
    private Answer anonymous(String path, String bearer) throws Exception {
        SSLContext trustOnly = SSLContext.getInstance("TLS");
        trustOnly.init(null, trustManagers(), null);
        HttpsURLConnection c = (HttpsURLConnection) base.resolve(path).toURL().openConnection();
        c.setSSLSocketFactory(trustOnly.getSocketFactory());
        c.setRequestProperty("Authorization", "Bearer " + bearer);
        int status = c.getResponseCode();
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        return new Answer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }

    private javax.net.ssl.TrustManager[] trustManagers() throws Exception {
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream ca = Files.newInputStream(state.getParent().resolve("tls").resolve("ca.crt"))) {
            trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(ca));
        }
        javax.net.ssl.TrustManagerFactory f = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
        f.init(trust);
        return f.getTrustManagers();
    }

    /** Whether a tar --create of the volume runs under the agent. */
    private boolean tarRuns() {
        return ProcessHandle.of(agent.pid()).map(h -> h.descendants().anyMatch(d -> d.info().command().orElse("")
                .endsWith("tar"))).orElse(false);
    }

    private String status(String field) throws IOException {
        return Files.readAllLines(Path.of("/proc", String.valueOf(agent.pid()), "status")).stream()
                .filter(l -> l.startsWith(field + ":")).map(l -> l.substring(field.length() + 1).strip())
                .findFirst().orElse("?");
    }

    record Answer(int status, String body) {
    }

    private Answer call(String method, String path, String body) throws IOException {
        HttpsURLConnection c = open(path);
        c.setRequestMethod(method);
        c.setConnectTimeout(2_000);
        c.setReadTimeout(30_000);
        if (body != null) {
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            c.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        return new Answer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
