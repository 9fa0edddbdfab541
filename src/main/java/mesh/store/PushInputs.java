package mesh.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import mesh.model.DeclarationJson;
import mesh.model.Placement;
import mesh.plan.PushInput;
import mesh.plan.Rollback;

/**
 * PushInputs holds the SQL of the inputs pushes planned from (V6__push_inputs.sql), for
 * {@code mesh rollback}: kept in the transaction that records the push, the newest {@value
 * Rollback#KEPT} only. Kept apart from {@link MeshStore} only for size; it runs in the caller's
 * transaction the same way.
 */
public final class PushInputs {

    private PushInputs() {
    }

    /** Kept is one push that can be rolled back to, as {@code mesh rollback --list} shows it, with its audit row. */
    public record Kept(long push, java.time.Instant at, String token, String verb, String change, int modules,
                       Long rollbackOf) {
    }

    /** Keeps a push's input and deletes all but the newest {@value Rollback#KEPT}, in the caller's transaction. */
    public static void keep(Connection c, PushInput in) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into push_inputs (push, catalogue, placements, nodes, pins, rollback_of)
                values (?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?)""")) {
            s.setLong(1, in.push());
            s.setString(2, DeclarationJson.write(in.catalogue()));
            s.setString(3, DeclarationJson.write(in.placements()));
            s.setString(4, DeclarationJson.write(in.nodes()));
            s.setString(5, DeclarationJson.write(in.pins()));
            s.setObject(6, in.rollbackOf());
            s.executeUpdate();
        }
        try (PreparedStatement s = c.prepareStatement(
                "delete from push_inputs where push not in (select push from push_inputs order by push desc limit ?)")) {
            s.setInt(1, Rollback.KEPT);
            s.executeUpdate();
        }
    }

    /** The input push {@code push} planned from, if it is kept. */
    public static Optional<PushInput> find(Connection c, long push) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select catalogue::text, placements::text, nodes::text, pins::text, rollback_of from push_inputs where push = ?")) {
            s.setLong(1, push);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                Long of = r.getObject(5) == null ? null : r.getLong(5);
                return Optional.of(new PushInput(push, read(r.getString(1), new TypeReference<List<PushInput.Module>>() { }),
                        read(r.getString(2), new TypeReference<List<Placement>>() { }),
                        read(r.getString(3), new TypeReference<List<PushInput.PlannedNode>>() { }),
                        read(r.getString(4), new TypeReference<Map<String, String>>() { }), of));
            }
        }
    }

    /** The verb of audit row {@code id}, or empty when the trail has none: what an unkept rollback's refusal says. */
    public static Optional<String> auditVerb(Connection c, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select verb from audit where id = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
            }
        }
    }

    /** Every kept push, newest first, with its audit row. */
    public static List<Kept> list(Connection c) throws SQLException {
        List<Kept> kept = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("""
                select p.push, coalesce(a.at, p.at), coalesce(a.token, ''), coalesce(a.verb, ''), coalesce(a.change, ''),
                       jsonb_array_length(p.catalogue), p.rollback_of
                from push_inputs p left join audit a on a.id = p.push order by p.push desc""");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                kept.add(new Kept(r.getLong(1), r.getTimestamp(2).toInstant(), r.getString(3), r.getString(4), r.getString(5),
                        r.getInt(6), r.getObject(7) == null ? null : r.getLong(7)));
            }
        }
        return kept;
    }

    /**
     * Makes the store's catalogue and placements exactly {@code catalogue} and {@code placements} (a
     * rollback's), so that the next push plans the same: every placement is rewritten, modules not in
     * {@code catalogue} are removed, the others put back as they were (a module identical to the stored
     * one is left alone).
     */
    public static void restore(Connection c, MeshStore store, List<PushInput.Module> catalogue, List<Placement> placements)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from placements")) {
            s.executeUpdate();
        }
        Set<String> kept = catalogue.stream().map(m -> m.manifest().module()).collect(Collectors.toSet());
        for (mesh.model.Manifest m : store.catalogue(c)) {
            if (!kept.contains(m.module())) {
                store.removeModule(c, m.module());
            }
        }
        for (PushInput.Module m : catalogue) {
            store.putModule(c, m.manifest(), m.source());
        }
        for (Placement p : placements) {
            store.putPlacement(c, p);
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return DeclarationJson.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StoreFailure("the store holds an unreadable push input: " + e.getOriginalMessage(), e);
        }
    }
}
