package mesh.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.security.cert.X509Certificate;
import java.util.List;
import mesh.trust.MeshCa;
import mesh.trust.ServerTrust;
import mesh.trust.TlsContexts;

/**
 * MetricsResource is {@code GET /metrics} on the controller's and every agent's HTTPS port: the Prometheus
 * text format of the one {@link MetricsSource} this process serves. Over HTTPS it answers only the mesh's
 * scraper certificate ({@code CN=mesh metrics}, issued by the mesh CA, which the handshake checked;
 * {@code mesh metrics scrape-config} gets one): a credential that opens this page and nothing else, so
 * Prometheus holds neither the controller's certificate (which commands every agent) nor an operator
 * token (which commands the mesh). Over plain HTTP (tests only) there is no certificate to check.
 */
@Path("/metrics")
public class MetricsResource {

    @Inject
    Instance<MetricsSource> sources;

    @GET
    public Response metrics(@Context HttpServerRequest http) {
        if (ServerTrust.enabled()) {
            String refused = refusal(http);
            if (refused != null) {
                return ApiErrors.error(401, refused, List.of());
            }
        }
        for (MetricsSource source : sources) {
            if (source.serves()) {
                PromText out = new PromText();
                source.write(out);
                return Response.ok(out.toString()).type(PromText.CONTENT_TYPE).build();
            }
        }
        return ApiErrors.retryLater("this server is starting; its metrics follow in a moment", 1);
    }

    /** Why the caller may not read the metrics, or null when it presented the scraper's certificate. */
    static String refusal(HttpServerRequest http) {
        X509Certificate cert = TlsContexts.peer(http == null || !http.isSSL() ? null : http.sslSession());
        if (cert == null) {
            return "the metrics answer only the mesh's scraper certificate: no client certificate was presented"
                    + " ('mesh metrics scrape-config' gets one and names it for Prometheus, docs/metrics.md)";
        }
        String name = TlsContexts.commonName(cert);
        return MeshCa.SCRAPER.equals(name) ? null : "the metrics answer only the mesh's scraper certificate: the client"
                + " certificate presented is '" + name + "', not '" + MeshCa.SCRAPER + "' (docs/metrics.md)";
    }
}
