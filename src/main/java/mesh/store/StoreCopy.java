package mesh.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * StoreCopy copies the store's rows out for a state backup and back in for a rebuild, through JDBC's
 * {@code COPY … TO STDOUT} / {@code FROM STDIN} (binary, so every type comes back exactly): the controller holds the
 * store's connection already, it works the same on {@code mesh-store} and on a {@code --store-url} PostgreSQL, and it
 * needs no call into the engine (a {@code pg_dump} would run in the store's container). Schema comes from the build's
 * own migrations: a copy names its schema version, and is copied only into a store migrated to that same version.
 *
 * <p>Parts, named as {@link mesh.trust.StateContent} keeps them: {@code store/schema} (the Flyway version, as text)
 * and {@code store/table/NAME} per table of schema {@code public} but Flyway's own.
 */
public final class StoreCopy {

    public static final String SCHEMA_PART = "store/schema";
    public static final String TABLE_PART = "store/table/";

    private StoreCopy() {
    }

    /** Every table's rows, all read in one repeatable-read transaction (one instant of the store). */
    public static Map<String, byte[]> copyOut(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            Map<String, byte[]> parts = new LinkedHashMap<>();
            parts.put(SCHEMA_PART, schemaVersion(c).getBytes(StandardCharsets.US_ASCII));
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            for (String table : tables(c)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                copy.copyOut("copy public.\"" + table + "\" to stdout with (format binary)", out);
                parts.put(TABLE_PART + table, out.toByteArray());
            }
            c.commit();
            return parts;
        } catch (IOException e) {
            c.rollback();
            throw new SQLException("cannot copy the store's rows out: " + e.getMessage(), e);
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * Replaces every table's rows with the copy's, in one transaction, then sets each sequence past its column's highest
     * value. No privilege beyond the tables' owner's is needed (a {@code --store-url} user, a store whose user is no
     * superuser): the fence (V2) is passed with the highest epoch for the transaction ({@code set local mesh.epoch}),
     * and the tables are filled referenced first, so each foreign key holds as its rows arrive. The store must be
     * migrated to the copy's schema version: another one is refused before anything is written.
     */
    public static void copyIn(Connection c, Map<String, byte[]> parts) throws SQLException {
        String want = new String(parts.getOrDefault(SCHEMA_PART, new byte[0]), StandardCharsets.US_ASCII);
        String have = schemaVersion(c);
        if (!want.equals(have)) {
            throw new SQLException("the copy is of store schema version " + want + ", this store is at " + have
                    + ": copied into nothing");
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("set local mesh.epoch = '" + Long.MAX_VALUE + "'");
            List<String> tables = referencedFirst(tables(c), foreignKeys(c));
            if (!tables.isEmpty()) {
                s.execute("truncate " + String.join(", ", tables.stream().map(t -> "public.\"" + t + "\"").toList()));
            }
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            for (String table : tables) {
                byte[] rows = parts.get(TABLE_PART + table);
                if (rows != null) {
                    copy.copyIn("copy public.\"" + table + "\" from stdin with (format binary)", new ByteArrayInputStream(rows));
                }
            }
            resetSequences(s);
            c.commit();
        } catch (IOException | SQLException e) {
            c.rollback();
            throw e instanceof SQLException q ? q : new SQLException("cannot copy the store's rows in: " + e.getMessage(), e);
        } finally {
            c.setAutoCommit(auto);
        }
    }

    private static void resetSequences(Statement s) throws SQLException {
        List<String[]> serials = new ArrayList<>();
        try (ResultSet r = s.executeQuery("select c.relname, a.attname, pg_get_serial_sequence('public.' || quote_ident(c.relname),"
                + " a.attname) from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid"
                + " where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped"
                + " and pg_get_serial_sequence('public.' || quote_ident(c.relname), a.attname) is not null")) {
            while (r.next()) {
                serials.add(new String[] {r.getString(1), r.getString(2), r.getString(3)});
            }
        }
        for (String[] t : serials) {
            s.execute("select setval('" + t[2].replace("'", "''") + "', coalesce((select max(\"" + t[1] + "\") from public.\""
                    + t[0] + "\"), 0) + 1, false)");
        }
    }

    /** Each foreign key between two tables of schema public: {referencing, referenced}; a table's keys to itself left out. */
    private static List<String[]> foreignKeys(Connection c) throws SQLException {
        List<String[]> keys = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select f.relname, t.relname from pg_constraint k join pg_class f on f.oid = k.conrelid"
                     + " join pg_class t on t.oid = k.confrelid join pg_namespace n on n.oid = f.relnamespace"
                     + " where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid")) {
            while (r.next()) {
                keys.add(new String[] {r.getString(1), r.getString(2)});
            }
        }
        return keys;
    }

    /** The tables ordered so each comes after every table it references (a cycle keeps the rest in name order). */
    static List<String> referencedFirst(List<String> tables, List<String[]> keys) {
        List<String> ordered = new ArrayList<>();
        List<String> left = new ArrayList<>(tables);
        while (!left.isEmpty()) {
            String next = left.stream().filter(t -> keys.stream().noneMatch(k -> k[0].equals(t) && left.contains(k[1])))
                    .findFirst().orElse(left.get(0));
            ordered.add(next);
            left.remove(next);
        }
        return ordered;
    }

    private static List<String> tables(Connection c) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select tablename from pg_tables where schemaname = 'public'"
                     + " and tablename <> 'flyway_schema_history' order by tablename")) {
            while (r.next()) {
                tables.add(r.getString(1));
            }
        }
        return tables;
    }

    private static String schemaVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select version from flyway_schema_history where success and version is not null"
                     + " order by installed_rank desc limit 1")) {
            return r.next() ? r.getString(1) : "none";
        }
    }
}
