package mesh.host.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import mesh.model.DeclarationJson;

/**
 * SupervisorMain is a stand-in for the agent in its own JVM, so a test can SIGKILL it: it applies the spec
 * read from a JSON file, prints "applied ACTION PID", then plays the agent's loop (reconcile every 100 ms)
 * until it is killed. Arguments: STATE_DIR SPEC_JSON.
 */
public final class SupervisorMain {

    private SupervisorMain() {
    }

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        ProcessSpec spec = DeclarationJson.MAPPER.readValue(Files.readString(Path.of(args[1])), ProcessSpec.class);
        ProcessSupervisor supervisor = new ProcessSupervisor(state, new LinuxProcessHost(),
                new Backoff(Duration.ofMillis(200), Duration.ofMillis(1600), Duration.ofSeconds(60)), new LogFiles.Limits(4096, 3));
        ProcessSupervisor.Outcome outcome = supervisor.apply(spec, Instant.now());
        System.out.println("applied " + outcome.action() + " " + outcome.pid());
        System.out.flush();
        while (true) {
            Thread.sleep(100);
            supervisor.reconcile(Instant.now(), module -> false);
        }
    }
}
