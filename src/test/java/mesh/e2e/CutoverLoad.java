package mesh.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * CutoverLoad is CutoverIT's client: curls that send requests through the edge at a fixed rate over verified TLS,
 * each on one kept connection, each answer's status on its own line with curl's exit code and error (a failed request
 * is any status but 200; a refused or reset connection prints 000 and says why), and a long-held streaming response.
 *
 * <p>Two curls speak HTTP/1.1 at 15 requests a second each, so that the rate holds at 20 a second or more on a loaded
 * machine; their answers are the count the cutover is judged by. A third speaks HTTP/2 at 10 a second and is counted
 * apart ({@link #stopHttp2}): every change of the edge's routes is one Caddy load, which closes the old configuration's
 * connections gracefully, and the HTTP/2 server of a Caddy built with Go 1.19 (the test bed's Debian Caddy 2.6.2 is
 * built with go1.19.8) closes a connection right after its GOAWAY with a request still in flight on it
 * (golang/go#55846), which curl 7.88 then reports as a failed transfer (curl/curl#11859, retried since curl 8.4).
 * Measured on the test bed's Caddy against a busybox upstream while the routes were loaded every 20 ms: HTTP/2 lost
 * 15 of 6,000 requests over 813 loads (curl 7.88; the JDK 25 client lost 2 over 881), HTTP/1.1 none over 927 (a kept
 * connection the old configuration closes is retried by the client before any byte of the answer). CutoverIT judges
 * the HTTP/2 count only where the edge's Caddy is 2.7 or later.
 */
final class CutoverLoad implements AutoCloseable {

    /** Tally is what the client saw: requests answered, those that failed, and the rate it kept. */
    record Tally(int total, int failed, double perSecond, List<String> failures) {
    }

    private final List<Process> http1;
    private final Process http2;
    private final List<Path> files;
    private final long started = System.nanoTime();
    private Tally tally;
    private Tally tally2;

    private CutoverLoad(List<Process> http1, Process http2, List<Path> files) {
        this.http1 = http1;
        this.http2 = http2;
        this.files = files;
    }

    /** Starts the clients on https://HOST/ at the edge on {@code address}: 30 requests a second over HTTP/1.1, 10 over HTTP/2. */
    static CutoverLoad start(Path ca, String address, String host) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Process> http1 = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            http1.add(curl(ca, address, host, "--http1.1", 15, files));
        }
        Process http2 = curl(ca, address, host, "--http2", 10, files);
        return new CutoverLoad(http1, http2, files);
    }

    /** One curl sending {@code rate} requests a second for ten minutes at most (stop() ends it); its answers go to a file. */
    private static Process curl(Path ca, String address, String host, String protocol, int rate, List<Path> files) throws IOException {
        Path urls = Files.createTempFile("cutover-urls", ".txt");
        Path out = Files.createTempFile("cutover-codes", ".txt");
        files.add(urls);
        files.add(out);
        StringBuilder config = new StringBuilder();
        for (int i = 0; i < rate * 600; i++) {
            config.append("url = \"https://").append(host).append("/\"\noutput = \"/dev/null\"\n");
        }
        Files.writeString(urls, config);
        return new ProcessBuilder("stdbuf", "-oL", "curl", "-sS", protocol, "--rate", rate + "/s", "--max-time", "5",
                "--cacert", ca.toString(), "--resolve", host + ":443:" + address,
                "-w", "%{http_code} exit %{exitcode} %{time_total}s %{errormsg}\\n", "--config", urls.toString())
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Stops the clients and counts what the HTTP/1.1 ones saw. */
    Tally stop() throws IOException, InterruptedException {
        if (tally != null) {
            return tally;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<Process> all = new ArrayList<>(http1);
        all.add(http2);
        for (Process p : all) {
            p.destroy();
        }
        for (Process p : all) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
        tally = count(List.of(files.get(1), files.get(3)), seconds);
        tally2 = count(List.of(files.get(5)), seconds);
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
        return tally;
    }

    /** What the HTTP/2 client saw (after {@link #stop}). */
    Tally stopHttp2() throws IOException, InterruptedException {
        stop();
        return tally2;
    }

    private static Tally count(List<Path> outs, double seconds) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path out : outs) {
            Files.readAllLines(out).stream().map(String::strip).filter(l -> !l.isEmpty()).forEach(lines::add);
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("200 ")) {
                failures.add("#" + i + ": " + lines.get(i));
            }
        }
        return new Tally(lines.size(), failures.size(), lines.size() / seconds, failures);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stop();
    }

    /** Stream is one long-held streaming response (curl -N), open while curl runs and receives. */
    static final class Stream implements AutoCloseable {
        private final Process curl;
        private final Path out;

        private Stream(Process curl, Path out) {
            this.curl = curl;
            this.out = out;
        }

        static Stream open(Path ca, String address, String host, String path) throws IOException {
            Path out = Files.createTempFile("cutover-stream", ".txt");
            Process p = new ProcessBuilder("stdbuf", "-oL", "curl", "-sSN", "--cacert", ca.toString(), "--resolve", host + ":443:" + address,
                    "https://" + host + path).redirectOutput(out.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            return new Stream(p, out);
        }

        /** Whether the response is still open and still receiving (a new line within two seconds). */
        boolean open() throws IOException, InterruptedException {
            long before = Files.size(out);
            Thread.sleep(2000);
            return curl.isAlive() && Files.size(out) > before;
        }

        @Override
        public void close() throws IOException {
            curl.destroy();
            Files.deleteIfExists(out);
        }

        @Override
        public String toString() {
            try {
                return "stream (curl " + (curl.isAlive() ? "running" : "ended " + curl.exitValue()) + ", "
                        + Files.size(out) + " bytes received)";
            } catch (IOException e) {
                return "stream (" + e.getMessage() + ")";
            }
        }
    }

    /** Runs a command in a container of that engine; its output. */
    static String exec(DockerClient engine, String container, String... command) throws InterruptedException {
        String id = engine.execCreateCmd(container).withCmd(command).withAttachStdout(true).withAttachStderr(true).exec().getId();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean done = engine.execStartCmd(id).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                bytes.writeBytes(frame.getPayload());
            }
        }).awaitCompletion(30, TimeUnit.SECONDS);
        assertTrue(done, "exec in " + container + " ended within 30 s");
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
