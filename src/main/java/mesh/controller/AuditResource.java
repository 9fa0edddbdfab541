package mesh.controller;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import mesh.model.InvalidInput;
import mesh.store.MeshStore;
import mesh.store.TrustStore;
import mesh.wire.AuditEntry;

/** AuditResource is {@code mesh audit}: the audit trail ({@link AuditTrail}), oldest first, from {@code since} on. */
@Path("/v1/mesh/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    @Inject
    MeshStore store;

    @Inject
    TrustStore trust;

    @GET
    public List<AuditEntry> audit(@QueryParam("since") String since) {
        Instant from;
        try {
            from = since == null || since.isBlank() ? null : Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw new InvalidInput(List.of("since: an ISO-8601 instant like 2026-11-30T19:00:00Z is needed, got '"
                    + since + "'"));
        }
        return store.inTransaction(c -> trust.audit(c, from)).stream()
                .map(r -> new AuditEntry(r.id(), r.at().toString(), r.token(), r.verb(), r.change())).toList();
    }
}
