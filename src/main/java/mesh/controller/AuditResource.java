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

    /**
     * The instants {@code since} may be: four-digit years, which ISO-8601 writes without a sign and
     * PostgreSQL's timestamps hold (past them, the instant overflowed at the database: a 500).
     */
    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

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
        if (from != null && (from.isBefore(EARLIEST) || from.isAfter(LATEST))) {
            throw new InvalidInput(List.of("since: an instant from " + EARLIEST + " to " + LATEST + ", got '" + since + "'"));
        }
        return store.inTransaction(c -> trust.audit(c, from)).stream()
                .map(r -> new AuditEntry(r.id(), r.at().toString(), r.token(), r.verb(), r.change())).toList();
    }
}
