package mesh.install;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.KeyPair;
import java.time.Duration;
import mesh.model.DeclarationJson;
import mesh.model.Poll;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.PinnedCa;
import mesh.trust.TlsDir;
import mesh.trust.TlsFailure;
import mesh.wire.ApiError;
import mesh.wire.JoinAnswer;
import mesh.wire.JoinRequest;

/**
 * JoinTls gets a joining node its agent's certificate: it makes a key here, pins the mesh CA by the
 * join line's {@code --ca-hash} on its first contact with the controller ({@link PinnedCa}), and
 * asks the controller ({@code POST /v1/join}, with the node's one-time join token) to certify the key. It
 * writes the CA, the certificate and the key (0600) under the state dir's {@code tls/}. A rerun
 * with the files there does nothing.
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
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(pin.context()).build();
        String url = o.join().replaceAll("/+$", "") + mesh.client.ControllerApi.JOIN;
        HttpResponse<String> answer;
        try {
            String body = DeclarationJson.MAPPER.writeValueAsString(new JoinRequest(o.node(), Pem.text(key.getPublic())));
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + o.joinToken()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            IOException[] unconnected = {null};
            Poll.Result<HttpResponse<String>> sent = Poll.interruptibly(CONNECTING, Duration.ofSeconds(1), () -> {
                try {
                    return Poll.got(http.send(request, HttpResponse.BodyHandlers.ofString()));
                } catch (java.net.http.HttpConnectTimeoutException | java.net.ConnectException notYet) {
                    // no connection, so the one-time token was not sent: a controller that just started (or a loaded
                    // machine) is asked again until CONNECTING is over
                    unconnected[0] = notYet;
                    return Poll.notYet(String.valueOf(notYet.getMessage()));
                }
            });
            if (!(sent instanceof Poll.Answered<HttpResponse<String>> a)) {
                throw unconnected[0];
            }
            answer = a.value();
        } catch (IOException e) {
            String why = TlsFailure.describe(e, url);
            throw new InstallFailure("cannot get this node's certificate from the controller at " + o.join() + ": "
                    + (why != null ? why : e.getMessage() == null ? "no answer" : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InstallFailure("interrupted while asking the controller for this node's certificate");
        }
        if (answer.statusCode() != 200) {
            String why = answer.body();
            try {
                why = DeclarationJson.MAPPER.readValue(answer.body(), ApiError.class).error();
            } catch (IOException | RuntimeException unreadable) {
                // the body as it is
            }
            throw new InstallFailure("the controller at " + o.join() + " refused this node's certificate (" + answer.statusCode()
                    + "): " + why);
        }
        try {
            JoinAnswer issued = DeclarationJson.MAPPER.readValue(answer.body(), JoinAnswer.class);
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
}
