package mesh.install;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;
import mesh.plan.InstallStep;
import mesh.plan.Preflight;

/**
 * JoinSteps adds this machine to a mesh whose controller runs elsewhere: the same preflight (the
 * agent's port only) and the same agent as a seat, its certificate got with the one-time join token
 * {@code mesh node add} printed ({@link JoinTls}); then it checks that the controller can be reached
 * from here. The controller sends the
 * node its declaration at the next push.
 */
public final class JoinSteps implements InstallRunner.Steps {

    private final InstallOptions o;
    private final InstallJournal journal;
    private final AgentSetup agent;

    public JoinSteps(InstallOptions o, InstallJournal journal, Consumer<String> say) {
        this.o = o;
        this.journal = journal;
        this.agent = new AgentSetup(o, say);
    }

    @Override
    public void run(InstallStep step) {
        switch (step) {
            case PREFLIGHT -> SeatSteps.preflight(o, Preflight.JOIN_PORTS);
            case AGENT -> {
                JoinTls.fetch(o);
                agent.install();
            }
            case JOIN -> reachController();
            default -> throw new InstallFailure("step " + step.word() + " is not part of joining a mesh");
        }
    }

    /** Any HTTP answer (401 without the operator token) says the controller is reachable from here. */
    private void reachController() {
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                    .sslContext(mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(o.tls().caCert()))).build();
            http.send(HttpRequest.newBuilder(URI.create(o.join().replaceAll("/+$", "") + mesh.client.ControllerApi.NODES))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            String tlsProblem = mesh.trust.TlsFailure.describe(e, o.join());
            throw new InstallFailure("the controller at " + o.join() + " cannot be reached from here: "
                    + (tlsProblem != null ? tlsProblem : e.getMessage() == null ? "no answer" : e.getMessage()), e);
        }
    }
}
