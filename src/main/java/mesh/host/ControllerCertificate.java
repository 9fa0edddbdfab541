package mesh.host;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import mesh.api.ApiErrors;
import mesh.trust.MeshCa;
import mesh.trust.TlsContexts;

/**
 * ControllerCertificate is the agent's half of mutual TLS: over HTTPS, a call must come with the
 * client certificate of its mesh's controller (issued by the mesh CA, which the handshake already
 * checked, and named {@link MeshCa#CONTROLLER}), and that certificate alone: a bearer token is
 * neither needed nor read, so an agent's host.env holds no secret the store has (docs/trust.md).
 * One kind of call is exempt: a take's ticket reads (agent to agent, checked before). An agent
 * serving plain HTTP (MESH_PLAIN_HTTP, tests only) has no certificate to check ({@link HostApiGuard}).
 */
final class ControllerCertificate {

    private ControllerCertificate() {
    }

    static Optional<Response> check(HttpServerRequest http) {
        X509Certificate cert = TlsContexts.peer(http == null || !http.isSSL() ? null : http.sslSession());
        if (cert == null) {
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
