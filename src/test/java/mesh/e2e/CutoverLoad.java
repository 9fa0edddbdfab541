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
 * CutoverLoad is CutoverIT's client: one curl that sends requests through the edge at a fixed rate over verified TLS
 * (curl's {@code --rate}, one keep-alive connection, each answer's status on its own line; a failed request is any
 * status but 200, a refused or reset connection printing 000), and a long-held streaming response.
 */
final class CutoverLoad implements AutoCloseable {

    /** Tally is what the client saw: requests answered, those that failed, and the rate it kept. */
    record Tally(int total, int failed, double perSecond, List<String> failures) {
    }

    private final Process curl;
    private final Path urls;
    private final Path out;
    private final long started = System.nanoTime();
    private Tally tally;

    private CutoverLoad(Process curl, Path urls, Path out) {
        this.curl = curl;
        this.urls = urls;
        this.out = out;
    }

    /** Starts sending {@code rate} requests a second to https://HOST/ at the edge on {@code address}. */
    static CutoverLoad start(Path ca, String address, String host, int rate) throws IOException {
        Path urls = Files.createTempFile("cutover-urls", ".txt");
        Path out = Files.createTempFile("cutover-codes", ".txt");
        StringBuilder config = new StringBuilder();
        for (int i = 0; i < rate * 600; i++) {   // ten minutes' worth; stop() ends it
            config.append("url = \"https://").append(host).append("/\"\noutput = \"/dev/null\"\n");
        }
        Files.writeString(urls, config);
        Process p = new ProcessBuilder("stdbuf", "-oL", "curl", "-sS", "--rate", rate + "/s", "--max-time", "5", "--cacert", ca.toString(),
                "--resolve", host + ":443:" + address, "-w", "%{http_code}\\n", "--config", urls.toString())
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new CutoverLoad(p, urls, out);
    }

    /** Stops the client and counts what it saw. */
    Tally stop() throws IOException, InterruptedException {
        if (tally != null) {
            return tally;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        curl.destroy();
        curl.waitFor(10, TimeUnit.SECONDS);
        List<String> codes = Files.readAllLines(out).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < codes.size(); i++) {
            if (!codes.get(i).equals("200")) {
                failures.add("#" + i + ": " + codes.get(i));
            }
        }
        tally = new Tally(codes.size(), failures.size(), codes.size() / seconds, failures);
        Files.deleteIfExists(urls);
        Files.deleteIfExists(out);
        return tally;
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
