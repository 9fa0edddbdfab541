package mesh.host;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import mesh.api.ApiErrors;
import mesh.trust.MeshCa;
import mesh.trust.ServerTrust;
import mesh.trust.TlsContexts;

/**
 * ControllerCertificate is the agent's half of mutual TLS: over HTTPS, a call must come with the
 * client certificate of its mesh's controller (issued by the mesh CA, which the handshake already
 * checked, and named {@link MeshCa#CONTROLLER}); the bearer token is still checked after it, for one
 * release (docs/trust.md). Two calls are exempt: a take's ticket reads (checked before) and
 * {@code GET /v1/status} with the token, which a joining node's installer asks to see its agent up.
 * An agent serving plain HTTP (MESH_PLAIN_HTTP, tests) has no certificates to check.
 */
final class ControllerCertificate {

    private ControllerCertificate() {
    }

    static Optional<Response> check(ContainerRequestContext request, HttpServerRequest http, String path) {
        if (!ServerTrust.enabled() || http == null || !http.isSSL()) {
            return Optional.empty();
        }
        if ("GET".equals(request.getMethod()) && path.equals("/v1/status")) {
            return Optional.empty();
        }
        SSLSession session = http.sslSession();
        Certificate[] chain;
        try {
            chain = session == null ? null : session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException none) {
            chain = null;
        }
        if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate cert)) {
            return Optional.of(ApiErrors.error(401, "this host agent takes calls only from its mesh's controller: no client"
                    + " certificate was presented (mutual TLS; the controller presents its own, docs/trust.md)", List.of()));
        }
        String name = TlsContexts.commonName(cert);
        if (!MeshCa.CONTROLLER.equals(name)) {
            return Optional.of(ApiErrors.error(401, "this host agent takes calls only from its mesh's controller: the client"
                    + " certificate presented is '" + name + "', not the controller's", List.of()));
        }
        return Optional.empty();
    }
}
