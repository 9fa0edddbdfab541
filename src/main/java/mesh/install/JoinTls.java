package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.security.KeyPair;
import java.time.Duration;
import mesh.client.HttpTransport;
import mesh.model.Poll;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.PinnedCa;
import mesh.trust.TlsDir;
import mesh.trust.TlsFailure;
import mesh.wire.ApiError;
import mesh.wire.JoinAnswer;
import mesh.wire.JoinRequest;
import mesh.wire.JsonHttp;

/**
 * JoinTls gets a joining node its agent's certificate: it makes a key here, pins the mesh CA by the
 * join line's {@code --ca-hash} on its first contact with the controller ({@link PinnedCa}), and
 * asks the controller ({@code POST /v1/join}, with the node's one-time join token) to certify the key. It
 * writes the CA, the certificate and the key (0600) under the state dir's {@code tls/}. A rerun
 * with the files there does nothing. It asks over the one {@link HttpTransport}, and a failed call is a
 * {@link mesh.wire.CallFailure}.
 */
final class JoinTls {

    /** How long the join keeps trying to connect to the controller (each try has 5 s). */
    static final Duration CONNECTING = Duration.ofSeconds(60);

    private JoinTls() {
    }

    static void fetch(InstallOptions o) {
        TlsDir tls = o.tls();
        if (Files.isRegularFile(tls.cert("agent")) && Files.isRegularFile(tls.key("agent")) && Files.isRegularFile(tls.caCert())
                && o.caHash() != null && o.caHash().equals(Pem.hash(Pem.certificate(tls.caCert())))) {
            return;
        }
        if (o.caHash() == null) {
            throw new InstallFailure("--ca-hash is needed to join: 'mesh node add' prints it in the join line");
        }
        KeyPair key = MeshCa.newKey();
        PinnedCa pin = new PinnedCa(o.caHash());
        HttpTransport http = new HttpTransport(pin.context(), JoinSteps.CONNECT);
        String base = o.join().replaceAll("/+$", "");
        JsonHttp join = new JsonHttp(connecting(http.to(base)), o.joinToken(), new JsonHttp.Words() {
            @Override
            public String unreachable(Exception e) {
                if (e instanceof InterruptedException) {
                    return "interrupted while asking the controller for this node's certificate";
                }
                String why = TlsFailure.describe(e, base + mesh.client.ControllerApi.JOIN);
                return "cannot get this node's certificate from the controller at " + o.join() + ": "
                        + (why != null ? why : e.getMessage() == null ? "no answer" : e.getMessage());
            }

            @Override
            public String refused(JsonHttp.Answer a, ApiError error) {
                return "the controller at " + o.join() + " refused this node's certificate (" + a.status() + "): "
                        + (error == null ? a.body() : error.error());
            }

            @Override
            public String unreadable(JsonHttp.Answer a, String detail) {
                return "the controller's answer holds no certificate of the mesh CA for this node: " + detail;
            }
        });
        // the token is one-time: a controller that says it is starting is not asked again with it
        JoinAnswer issued = join.call("POST", mesh.client.ControllerApi.JOIN,
                new JoinRequest(o.node(), Pem.text(key.getPublic())), JoinAnswer.class, Duration.ofSeconds(20), Duration.ZERO);
        if (issued == null) {
            throw new InstallFailure("the controller's answer holds no certificate of the mesh CA for this node: it is empty");
        }
        try {
            var ca = Pem.certificate(issued.ca(), "the controller's answer");
            if (!Pem.hash(ca).equals(o.caHash())) {
                throw new InstallFailure("the controller answered with a CA that is not the one of --ca-hash " + o.caHash());
            }
            var cert = Pem.certificate(issued.certificate(), "the controller's answer");
            cert.verify(ca.getPublicKey());
            Pem.writeCertificate(tls.caCert(), ca);
            tls.writeIssued("agent", cert, key.getPrivate(), ca);
        } catch (IOException | java.security.GeneralSecurityException | IllegalArgumentException e) {
            throw new InstallFailure("the controller's answer holds no certificate of the mesh CA for this node: " + e.getMessage(), e);
        }
    }

    /**
     * The round trips of {@code direct}, each connection tried again until {@link #CONNECTING} is over: without a
     * connection the one-time token was not sent, so a controller that just started (or a loaded machine) is asked again.
     */
    private static JsonHttp.Transport connecting(JsonHttp.Transport direct) {
        return (method, path, headers, body, timeout) -> {
            IOException[] unconnected = {null};
            Poll.Result<JsonHttp.Answer> sent = Poll.interruptibly(CONNECTING, Duration.ofSeconds(1), () -> {
                try {
                    return Poll.got(direct.exchange(method, path, headers, body, timeout));
                } catch (java.net.http.HttpConnectTimeoutException | java.net.ConnectException notYet) {
                    unconnected[0] = notYet;
                    return Poll.notYet(String.valueOf(notYet.getMessage()));
                }
            });
            if (!(sent instanceof Poll.Answered<JsonHttp.Answer> a)) {
                throw unconnected[0];
            }
            return a.value();
        };
    }
}
