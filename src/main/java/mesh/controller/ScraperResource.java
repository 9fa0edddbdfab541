package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import mesh.api.ApiErrors;
import mesh.store.MeshStore;
import mesh.trust.MeshCa;
import mesh.trust.Pem;
import mesh.trust.ServerTrust;
import mesh.wire.ScraperCertificate;
import mesh.wire.ScraperRequest;

/**
 * ScraperResource issues the mesh's scraper certificate ({@code POST /v1/mesh/metrics/scraper}, an operator call:
 * {@code mesh metrics scrape-config}): for the public key the operator's machine sends, a client certificate named
 * {@link MeshCa#SCRAPER}, which the controller's and every agent's {@code /metrics} accept and nothing else does
 * (docs/metrics.md). Only the seat's controller can (it holds the CA's key); each issue is in the audit trail.
 */
@Path("/v1/mesh/metrics/scraper")
public class ScraperResource {

    @Inject
    MeshStore store;

    @Inject
    AuditTrail audit;

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response issue(String body) {
        ScraperRequest request = Bodies.read(body, ScraperRequest.class, "{\"publicKey\": PEM}");
        var issuer = ServerTrust.issuer();
        if (issuer.isEmpty()) {
            return ApiErrors.error(409, "this controller cannot issue the scraper's certificate: it was started without the"
                    + " mesh CA's key (MESH_CA_KEY; the seat's controller has it, docs/trust.md)", List.of());
        }
        java.security.PublicKey key;
        try {
            key = Pem.publicKey(request == null ? null : request.publicKey(), "publicKey");
        } catch (IllegalArgumentException e) {
            return ApiErrors.error(400, e.getMessage(), List.of());
        }
        MeshCa ca = issuer.get();
        X509Certificate cert = ca.certify(MeshCa.Role.SCRAPER, MeshCa.SCRAPER, List.of("mesh-metrics"), key, Instant.now());
        String serial = cert.getSerialNumber().toString(16);
        store.inTransaction(c -> audit.record(c, "metrics scrape-config", "scraper certificate issued (serial " + serial
                + ", valid until " + cert.getNotAfter().toInstant() + ")"));
        return Response.ok(new ScraperCertificate(Pem.text(cert) + Pem.text(ca.certificate()), Pem.text(ca.certificate()),
                serial, cert.getNotAfter().toInstant().toString())).build();
    }
}
