package mesh.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.DeclarationJson;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.plan.MeshPlan;
import mesh.plan.PushDecision;
import org.flywaydb.core.Flyway;

/**
 * MeshStore holds all of the controller's SQL. Each verb runs in one transaction
 * ({@link #inTransaction}); the methods below take that transaction's connection. A push is the
 * exception: it waits on agents, so it runs short transactions around those calls, serialised
 * by {@link PushLock} instead ({@link #lockPushes}).
 */
@ApplicationScoped
public class MeshStore {

    /**
     * Resolved on first use: the datasource is active only in {@code controller serve} (its URL is
     * set there), and a direct injection would make every other verb fail at boot.
     */
    @Inject
    Instance<AgroalDataSource> dataSource;

    /** Resolved only when the controller migrates: in every other verb Flyway is inactive. */
    @Inject
    Instance<Flyway> flyway;

    /** The SQL state the fence raises (V2__controller_epoch.sql). */
    static final String FENCED = "ME001";

    /** Work is one verb's transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** This controller's epoch (0 unless set): sent with every transaction, see V2__controller_epoch.sql. */
    private volatile long epoch;

    public void migrate() {
        flyway.get().migrate();
    }

    /**
     * Takes {@code epoch} as this controller's and raises the store's to it if it is older; a
     * controller with an older epoch is fenced from then on (its writes are refused).
     */
    public void claimEpoch(long epoch) {
        this.epoch = epoch;
        if (epoch > 0) {
            inTransaction(c -> {
                try (var s = c.prepareStatement("update controller_epoch set epoch = greatest(epoch, ?)")) {
                    s.setLong(1, epoch);
                    return s.executeUpdate();
                }
            });
        }
    }

    /**
     * Whether a newer controller has claimed this very store (its epoch is above this controller's): this controller
     * is then fenced by the store itself (its writes refused in the fence's words) and its reads are the newer one's
     * truth. A promoted seat has a store of its own, which it never claims here.
     */
    public boolean claimedByNewer() {
        long mine = epoch;
        return mine > 0 && inTransaction(c -> {
            try (var s = c.prepareStatement("select epoch from controller_epoch"); var r = s.executeQuery()) {
                return r.next() && r.getLong(1) > mine;
            }
        });
    }

    public <T> T inTransaction(Work<T> work) {
        try (Connection c = dataSource.get().getConnection()) {
            c.setAutoCommit(false);
            try {
                try (var s = c.createStatement()) {
                    s.execute("set local mesh.epoch = '" + epoch + "'");
                }
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            if (FENCED.equals(e.getSQLState())) {
                throw new ControllerFenced(e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                        ? p.getServerErrorMessage().getMessage() : e.getMessage());
            }
            throw new StoreFailure("the controller's store (PostgreSQL) failed: " + e.getMessage()
                    + "; this verb's changes to it were rolled back; try again when it answers", e);
        }
    }

    /**
     * Runs {@code work} on a connection of its own in auto-commit, without the epoch: for reads that set their own
     * transaction (a state backup's copy of the store, {@code StoreCopy.copyOut}).
     */
    public <T> T withConnection(Work<T> work) {
        try (Connection c = dataSource.get().getConnection()) {
            c.setAutoCommit(true);
            return work.run(c);
        } catch (SQLException e) {
            throw new StoreFailure("the controller's store (PostgreSQL) failed: " + e.getMessage(), e);
        }
    }

    /**
     * Takes the push lock ({@link PushLock}) on a connection of its own, or refuses at once when
     * another push holds it: a push waits on agents for up to a minute, and a second one queued
     * behind it would only send what the first has just sent.
     */
    public PushLock lockPushes() {
        try {
            Connection c = dataSource.get().getConnection();
            c.setAutoCommit(true);
            PushLock lock = PushLock.tryTake(c);
            if (lock == null) {
                throw new PushBusy();
            }
            return lock;
        } catch (SQLException e) {
            throw new StoreFailure("the controller's store (PostgreSQL) failed: " + e.getMessage()
                    + "; nothing was sent; try again when it answers", e);
        }
    }

    /** The take lock of {@code module} ({@link TakeLock}), or null when another runner holds it. */
    public TakeLock tryLockTake(String module) {
        try {
            Connection c = dataSource.get().getConnection();
            c.setAutoCommit(true);
            return TakeLock.tryTake(c, module);
        } catch (SQLException e) {
            throw new StoreFailure("the controller's store (PostgreSQL) failed: " + e.getMessage()
                    + "; the take was not carried on; try again when it answers", e);
        }
    }

    // nodes

    public List<Node> nodes(Connection c) throws SQLException {
        List<Node> nodes = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select name, address, agent, public_domain from nodes order by name");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                nodes.add(new Node(r.getString(1), r.getString(2), r.getString(3), r.getString(4)));
            }
        }
        return nodes;
    }

    public Optional<Node> node(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select name, address, agent, public_domain from nodes where name = ?")) {
            s.setString(1, name);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new Node(r.getString(1), r.getString(2), r.getString(3), r.getString(4)))
                        : Optional.empty();
            }
        }
    }

    /**
     * Adds a node, with no join token ({@link #setJoinToken} gives it one). The store holds no token
     * that commands a node: agents answer only to the controller's certificate (docs/trust.md).
     */
    public void addNode(Connection c, Node node) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "insert into nodes (name, address, agent, public_domain) values (?, ?, ?, ?)")) {
            s.setString(1, node.name());
            s.setString(2, node.address());
            s.setString(3, node.agent());
            s.setString(4, node.publicDomain());
            s.executeUpdate();
        }
        try (PreparedStatement s = c.prepareStatement("insert into node_pushes (node) values (?)")) {
            s.setString(1, node.name());
            s.executeUpdate();
        }
    }

    public void setPublicDomain(Connection c, String node, String domain) throws SQLException {
        update(c, "update nodes set public_domain = ? where name = ?", domain, node);
    }

    /** Changes a node's address and agent URL (node set). */
    public void setNode(Connection c, String node, String address, String agent) throws SQLException {
        update(c, "update nodes set address = ?, agent = ? where name = ?", address, agent, node);
    }

    /** JoinTokenRow is a node's join token as stored (its hash, null once spent or never made), and the store's time now. */
    public record JoinTokenRow(byte[] hash, java.time.Instant made, java.time.Instant now) {
    }

    /** The node's join token row, read under a row lock so that two joins with one token cannot both spend it. */
    public Optional<JoinTokenRow> joinToken(Connection c, String node) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select join_token_hash, join_token_made, now() from nodes where name = ? for update")) {
            s.setString(1, node);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new JoinTokenRow(r.getBytes(1), instant(r.getTimestamp(2)),
                        instant(r.getTimestamp(3)))) : Optional.empty();
            }
        }
    }

    /** Gives a node a new join token ({@code hash}, its SHA-256), made now; returns when (the store's time). */
    public java.time.Instant setJoinToken(Connection c, String node, byte[] hash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update nodes set join_token_hash = ?, join_token_made = now() where name = ? returning join_token_made")) {
            s.setBytes(1, hash);
            s.setString(2, node);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getTimestamp(1).toInstant();
            }
        }
    }

    /** Spends a node's join token: its hash is cleared, when it was made is kept (so a second join is told it was spent). */
    public void spendJoinToken(Connection c, String node) throws SQLException {
        update(c, "update nodes set join_token_hash = null where name = ?", node);
    }

    private static java.time.Instant instant(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    public void removeNode(Connection c, String node) throws SQLException {
        update(c, "delete from nodes where name = ?", node);
    }

    // catalogue

    public List<Manifest> catalogue(Connection c) throws SQLException {
        List<Manifest> modules = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select manifest from modules order by name");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                modules.add(read(r.getString(1), Manifest.class));
            }
        }
        return modules;
    }

    public boolean hasModule(Connection c, String module) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select 1 from modules where name = ?")) {
            s.setString(1, module);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** StoredModule is a module's row: the manifest as stored, the file it came from and when it was stored. */
    public record StoredModule(Manifest manifest, String source, java.time.Instant addedAt) {
    }

    public Optional<StoredModule> module(Connection c, String module) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select manifest, source, added_at from modules where name = ?")) {
            s.setString(1, module);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new StoredModule(read(r.getString(1), Manifest.class), r.getString(2),
                        r.getTimestamp(3).toInstant())) : Optional.empty();
            }
        }
    }

    public void removeModule(Connection c, String module) throws SQLException {
        update(c, "delete from modules where name = ?", module);
    }

    /** ModuleChange is what {@link #putModule} did to a module. */
    public enum ModuleChange { ADDED, UPDATED, UNCHANGED }

    /**
     * Adds or replaces a module. A manifest identical to the stored one (as JSON, key order aside) is
     * left alone, its row untouched, and said to be unchanged.
     */
    public ModuleChange putModule(Connection c, Manifest m, String source) throws SQLException {
        String json = DeclarationJson.write(m);
        try (PreparedStatement s = c.prepareStatement("select manifest = ?::jsonb from modules where name = ?")) {
            s.setString(1, json);
            s.setString(2, m.module());
            try (ResultSet r = s.executeQuery()) {
                if (r.next() && r.getBoolean(1)) {
                    return ModuleChange.UNCHANGED;
                }
            }
        }
        return putManifest(c, m, source) ? ModuleChange.ADDED : ModuleChange.UPDATED;
    }

    private boolean putManifest(Connection c, Manifest m, String source) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into modules (name, manifest, source) values (?, ?::jsonb, ?)
                on conflict (name) do update set manifest = excluded.manifest, source = excluded.source, added_at = now()
                returning (xmax = 0)""")) {
            s.setString(1, m.module());
            s.setString(2, DeclarationJson.write(m));
            s.setString(3, source);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getBoolean(1);
            }
        }
    }

    // placements

    public List<Placement> placements(Connection c) throws SQLException {
        List<Placement> placements = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select module, assigned, taken from placements order by module");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                placements.add(new Placement(r.getString(1), r.getString(2), r.getString(3)));
            }
        }
        return placements;
    }

    /** The module's placement; one with neither assigned nor taken (it runs nowhere) when the store has none. */
    public Placement placement(Connection c, String module) throws SQLException {
        return placements(c).stream().filter(p -> p.module().equals(module)).findFirst()
                .orElse(new Placement(module, null, null));
    }

    public void putPlacement(Connection c, Placement p) throws SQLException {
        if (p.assigned() == null && p.taken() == null) {
            update(c, "delete from placements where module = ?", p.module());
            return;
        }
        try (PreparedStatement s = c.prepareStatement("""
                insert into placements (module, assigned, taken) values (?, ?, ?)
                on conflict (module) do update set assigned = excluded.assigned, taken = excluded.taken""")) {
            s.setString(1, p.module());
            s.setString(2, p.assigned());
            s.setString(3, p.taken());
            s.executeUpdate();
        }
    }

    // pushes

    /** PushState is what a node last acknowledged and the highest generation ever sent to it. */
    public record PushState(String node, long lastGeneration, long ackedGeneration, String ackedDeclaration,
                            String lastError) {
    }

    /**
     * PushSnapshot is all a push reads from the store, read in one transaction: each node's push state as
     * {@link PushDecision.Sent}, and the file each module was added from ({@code sources}, by module), which
     * the push's kept input records ({@link PushInputs}).
     */
    public record PushSnapshot(List<Node> nodes, List<Manifest> catalogue, List<Placement> placements,
                               List<PushDecision.Sent> sent, Map<String, String> sources) {
    }

    public PushSnapshot pushSnapshot() {
        return inTransaction(c -> {
            List<Node> nodes = nodes(c);
            Map<String, Node> byName = new LinkedHashMap<>();
            nodes.forEach(n -> byName.put(n.name(), n));
            List<PushDecision.Sent> sent = pushStates(c).stream().map(p -> new PushDecision.Sent(byName.get(p.node()),
                    p.lastGeneration(), p.ackedGeneration(), p.ackedDeclaration())).toList();
            List<Manifest> catalogue = new ArrayList<>();
            Map<String, String> sources = new LinkedHashMap<>();
            try (PreparedStatement q = c.prepareStatement("select name, manifest, source from modules order by name");
                 ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    catalogue.add(read(r.getString(2), Manifest.class));
                    sources.put(r.getString(1), r.getString(3));
                }
            }
            return new PushSnapshot(nodes, catalogue, placements(c), sent, sources);
        });
    }

    public List<PushState> pushStates(Connection c) throws SQLException {
        List<PushState> states = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "select node, last_generation, acked_generation, acked_declaration::text, last_error from node_pushes order by node");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                states.add(new PushState(r.getString(1), r.getLong(2), r.getLong(3), r.getString(4), r.getString(5)));
            }
        }
        return states;
    }

    public void recordSent(Connection c, String node, long generation) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "update node_pushes set last_generation = greatest(last_generation, ?), updated_at = now() where node = ?")) {
            s.setLong(1, generation);
            s.setString(2, node);
            s.executeUpdate();
        }
    }

    public void recordAcked(Connection c, String node, long generation, String declaration) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update node_pushes set acked_generation = ?, acked_declaration = ?::jsonb, last_error = null,
                updated_at = now() where node = ?""")) {
            s.setLong(1, generation);
            s.setString(2, declaration);
            s.setString(3, node);
            s.executeUpdate();
        }
    }

    public void recordError(Connection c, String node, String error) throws SQLException {
        update(c, "update node_pushes set last_error = ?, updated_at = now() where node = ?", error, node);
    }

    // roster

    public List<MeshPlan.RosterEntry> roster(Connection c) throws SQLException {
        List<MeshPlan.RosterEntry> roster = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select name, address, node, module, kind from roster order by name");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                roster.add(new MeshPlan.RosterEntry(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                        r.getString(5)));
            }
        }
        return roster;
    }

    public void replaceRoster(Connection c, List<MeshPlan.RosterEntry> entries) throws SQLException {
        update(c, "delete from roster");
        try (PreparedStatement s = c.prepareStatement(
                "insert into roster (name, address, node, module, kind) values (?, ?, ?, ?, ?)")) {
            for (MeshPlan.RosterEntry e : entries) {
                s.setString(1, e.name());
                s.setString(2, e.address());
                s.setString(3, e.node());
                s.setString(4, e.module());
                s.setString(5, e.kind());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    private static void update(Connection c, String sql, String... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            s.executeUpdate();
        }
    }

    private static <T> T read(String json, Class<T> type) {
        try {
            return DeclarationJson.MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StoreFailure("the store holds an unreadable " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
