package mesh.host;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.List;
import mesh.api.ApiErrors;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.ServedCertificate;
import mesh.trust.ServerTrust;
import mesh.trust.TlsContexts;
import mesh.wire.AgentCertificate;
import mesh.wire.AgentKey;
import mesh.wire.CertificateServed;

/**
 * CertResource is the agent's half of {@code mesh ca rotate-certs} (docs/trust.md, "Rotating
 * certificates"), called by the controller over mutual TLS ({@link HostApiGuard}): the agent makes a
 * new key pair and answers with its public half, keeping the private half pending here; the
 * controller sends the certificate it issued for it; the agent checks that it chains to the mesh CA,
 * is for the pending key and names this node, then writes the pair and serves it without a restart
 * ({@link ServedCertificate}). So the agent's private key never leaves its node, as at join.
 */
@Path("/v1/tls")
@jakarta.inject.Singleton   // one instance: the pending key is kept between the two calls
@Produces(MediaType.APPLICATION_JSON)
public class CertResource {

    @Inject
    HostAgent agent;

    @Inject
    ServedCertificate served;

    /** The key pair made for the next certificate, until it comes (a new request replaces it). */
    private volatile KeyPair pending;

    @POST
    @Path("/key")
    public Response newKey() {
        if (!ServerTrust.enabled()) {
            return plain();
        }
        KeyPair pair = MeshCa.newKey();
        pending = pair;
        return Response.ok(new AgentKey(Pem.text(pair.getPublic()))).build();
    }

    @PUT
    @Path("/certificate")
    @Consumes(MediaType.APPLICATION_JSON)
    public synchronized Response certificate(AgentCertificate body) {
        if (!ServerTrust.enabled()) {
            return plain();
        }
        KeyPair pair = pending;
        if (pair == null) {
            return ApiErrors.error(409, "no new key is pending on this agent: ask for one first (POST /v1/tls/key)", List.of());
        }
        if (body == null || body.certificate() == null) {
            return ApiErrors.error(400, "a certificate is needed: {\"certificate\": PEM}", List.of());
        }
        X509Certificate cert;
        try {
            cert = Pem.certificate(body.certificate(), "certificate");
        } catch (IllegalArgumentException e) {
            return ApiErrors.error(400, e.getMessage(), List.of());
        }
        String wrong = wrong(cert, pair);
        if (wrong != null) {
            return ApiErrors.error(400, "certificate refused, this agent keeps serving its current one: " + wrong, List.of());
        }
        try {
            served.replace(cert, pair.getPrivate());
        } catch (java.io.IOException | RuntimeException e) {
            return ApiErrors.error(500, "the new certificate could not be put in place: " + e.getMessage(), List.of());
        }
        pending = null;
        return Response.ok(new CertificateServed(cert.getSerialNumber().toString(16),
                cert.getNotAfter().toInstant().toString())).build();
    }

    /** What is wrong with a certificate sent for the pending key, or null: not the mesh CA's, not for the key, not this node's. */
    private String wrong(X509Certificate cert, KeyPair pair) {
        try {
            cert.verify(ServerTrust.ca().getPublicKey());
            cert.checkValidity();
        } catch (java.security.GeneralSecurityException e) {
            return "it was not issued by this mesh's CA, or is not valid now";
        }
        if (!cert.getPublicKey().equals(pair.getPublic())) {
            return "it is not for the key this agent made (another rotation asked for a newer one?)";
        }
        String name = TlsContexts.commonName(cert);
        if (!name.equals(agent.settings().node())) {
            return "it names '" + name + "', and this is node " + agent.settings().node();
        }
        return null;
    }

    private static Response plain() {
        return ApiErrors.error(409, "this host agent serves plain HTTP (MESH_PLAIN_HTTP=yes): it has no certificate to rotate",
                List.of());
    }
}
