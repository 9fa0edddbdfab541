package mesh.host;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.HealthCheck;
import mesh.model.Poll;

/**
 * ProcessHealth waits until a process is ready, as {@link HealthProbe} does for a container: running (as
 * the supervisor sees it), and its health check answering: HTTP on the node's mesh address (where a
 * process listens; 127.0.0.1 when the declaration has none), or its command run on the host, exit 0.
 */
final class ProcessHealth {

    private final ProcessComponents processes;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HealthProbe.ATTEMPT_TIMEOUT).build();

    ProcessHealth(ProcessComponents processes) {
        this.processes = processes;
    }

    void awaitReady(ComponentSpec spec, Declaration d) throws InterruptedException {
        HealthCheck check = spec.health();
        Duration timeout = Duration.ofSeconds(check == null ? HealthCheck.DEFAULT_TIMEOUT_SECONDS : check.timeout());
        Poll.Result<Boolean> r = Poll.interruptibly(timeout, HealthProbe.POLL, () -> {
            if (!processes.running(spec.name(), Instant.now())) {
                return Poll.notYet("not running");
            }
            String why = once(spec, d);
            return why == null ? Poll.got(true) : Poll.notYet(why);
        });
        if (r instanceof Poll.TimedOut<Boolean> t) {
            throw new IllegalStateException("not healthy after " + timeout.toSeconds() + "s: " + t.lastWhy());
        }
    }

    /** One try of the process's health check, as each pass makes: null when it passes (or there is none), else why not. */
    String once(ComponentSpec spec, Declaration d) throws InterruptedException {
        HealthCheck check = spec.health();
        if (check == null) {
            return null;
        }
        return check.http() != null ? httpAnswer(d, check) : commandAnswer(check);
    }

    /** Null when healthy, else why not. */
    private String httpAnswer(Declaration d, HealthCheck check) throws InterruptedException {
        String address = d.address() == null ? "127.0.0.1" : d.address();
        URI uri = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + check.port() + check.http());
        try {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(uri).timeout(HealthProbe.ATTEMPT_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() < 400 ? null : "GET " + check.http() + " answered " + response.statusCode();
        } catch (IOException e) {
            return "GET " + check.http() + " failed: " + (e.getMessage() == null ? "no answer" : e.getMessage());
        }
    }

    private static String commandAnswer(HealthCheck check) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(check.command()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(HealthProbe.ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return "health command did not end in " + HealthProbe.ATTEMPT_TIMEOUT.toSeconds() + "s";
            }
            return p.exitValue() == 0 ? null : "health command exited " + p.exitValue();
        } catch (IOException e) {
            return "health command could not run: " + e.getMessage();
        }
    }
}
