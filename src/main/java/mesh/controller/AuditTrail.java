package mesh.controller;

import io.quarkus.arc.Arc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import mesh.store.TrustStore;

/**
 * AuditTrail records each write verb in the verb's own transaction: the name of the operator
 * token that asked for it, the verb and what changed (words made by {@link AuditText}; never a
 * token). A verb that is refused rolls its row back with everything else, so the trail holds
 * exactly what happened. A write made outside an operator's request (the controller's own, at
 * start) is recorded as {@value #CONTROLLER}.
 *
 * <p>A new write verb makes one call, inside its {@code store.inTransaction(c -> ...)}:
 * {@code audit.record(c, "take", "module web: taken on ace (was novox)")}.
 */
@ApplicationScoped
public class AuditTrail {

    /** The name the controller's own writes are recorded under; no operator token can have it. */
    public static final String CONTROLLER = "controller";

    @Inject
    TrustStore trust;

    @Inject
    Operator operator;

    /** Records one write by the current request's token; returns the record's id ({@code mesh audit} shows it). */
    public long record(Connection c, String verb, String change) throws SQLException {
        return trust.record(c, who(), verb, change);
    }

    /** The name of the token of the current request, or {@value #CONTROLLER} outside one. */
    public String who() {
        if (Arc.container() == null || !Arc.container().requestContext().isActive()) {
            return CONTROLLER;
        }
        String name = operator.name();
        return name == null ? CONTROLLER : name;
    }
}
