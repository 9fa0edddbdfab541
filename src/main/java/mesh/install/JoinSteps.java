package mesh.install;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;
import mesh.client.HttpTransport;
import mesh.plan.InstallStep;
import mesh.plan.Preflight;
import mesh.wire.CallFailure;

/**
 * JoinSteps adds this machine to a mesh whose controller runs elsewhere: the same preflight (the
 * agent's port only) and the same agent as a seat, its certificate got with the one-time join token
 * {@code mesh node add} printed ({@link JoinTls}); then it checks that the controller can be reached
 * from here. The controller sends the
 * node its declaration at the next push.
 */
public final class JoinSteps implements InstallRunner.Steps {

    /** How long the join waits to connect to the controller. */
    static final Duration CONNECT = Duration.ofSeconds(5);

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

    /**
     * Any HTTP answer (401 without the operator token) says the controller is reachable from here; no answer is a
     * {@link CallFailure}.
     */
    private void reachController() {
        try {
            new HttpTransport(mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(o.tls().caCert())), CONNECT)
                    .send(HttpRequest.newBuilder(URI.create(o.join().replaceAll("/+$", "") + mesh.client.ControllerApi.NODES))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw CallFailure.unreachable(unreachable(e), e);
        } catch (RuntimeException e) {   // the mesh CA's file did not read: nothing was asked
            throw new InstallFailure(unreachable(e), e);
        }
    }

    private String unreachable(Exception e) {
        String tlsProblem = mesh.trust.TlsFailure.describe(e, o.join());
        return "the controller at " + o.join() + " cannot be reached from here: "
                + (tlsProblem != null ? tlsProblem : e.getMessage() == null ? "no answer" : e.getMessage());
    }
}
