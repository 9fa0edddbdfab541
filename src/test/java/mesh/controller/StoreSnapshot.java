package mesh.controller;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * StoreSnapshot is every row of every table of the controller's store, as text, in a stable order:
 * two snapshots are equal exactly when nothing in the store changed. Nothing is left out, timestamps
 * included ({@code created_at}, {@code added_at}, {@code updated_at}): a refusal must not touch them
 * either. Tables are found in the catalogue, so a table added by a later migration is covered too.
 * One table is not a call's to change: {@code alerts}, which the controller's own alert watch writes
 * every 5 s from what it sees of the nodes, whatever calls come in (no API call writes it; a module
 * still starting is a pending alert there, then none), so it is left out ({@link #OWN_LOOKS}).
 */
public final class StoreSnapshot {

    /** The tables the controller owns; wiped before each case (Flyway's history is kept). */
    static final String TRUNCATE = "truncate roster, node_pushes, placements, modules, nodes cascade";

    /** The tables the controller's own watches write on their own schedule (V12__alerts.sql), not any call. */
    static final java.util.Set<String> OWN_LOOKS = java.util.Set.of("alerts");

    private StoreSnapshot() {
    }

    public static String of(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("""
                    select table_name from information_schema.tables
                    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name""")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            if (tables.isEmpty()) {
                throw new AssertionError("the store has no tables: was it migrated?");
            }
            StringBuilder text = new StringBuilder();
            tables.removeAll(OWN_LOOKS);
            for (String table : tables) {
                text.append("table ").append(table).append('\n');
                // a row cast to text holds every column; ordering by it makes the listing stable
                try (ResultSet r = s.executeQuery("select t::text from \"" + table + "\" t order by 1")) {
                    while (r.next()) {
                        text.append("  ").append(r.getString(1)).append('\n');
                    }
                }
            }
            return text.toString();
        } catch (SQLException e) {
            throw new AssertionError("cannot read the store: " + e.getMessage(), e);
        }
    }

    /**
     * The rows one snapshot has and the other has not, each under its table: {@code -} before only,
     * {@code +} after only. Empty when the two are equal.
     */
    public static String diff(String before, String after) {
        java.util.Set<String> was = rows(before);
        java.util.Set<String> is = rows(after);
        StringBuilder text = new StringBuilder();
        was.stream().filter(r -> !is.contains(r)).forEach(r -> text.append("- ").append(r).append('\n'));
        is.stream().filter(r -> !was.contains(r)).forEach(r -> text.append("+ ").append(r).append('\n'));
        return text.toString();
    }

    private static java.util.Set<String> rows(String snapshot) {
        java.util.Set<String> rows = new java.util.LinkedHashSet<>();
        String table = "";
        for (String line : snapshot.split("\n")) {
            if (line.startsWith("table ")) {
                table = line.substring("table ".length());
            } else if (!line.isBlank()) {
                rows.add(table + ": " + line.strip());
            }
        }
        return rows;
    }

    static void wipe(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute(TRUNCATE);
        } catch (SQLException e) {
            throw new AssertionError("cannot wipe the store: " + e.getMessage(), e);
        }
    }

    /** How many rows a table holds, for the seed's own checks. */
    static long count(DataSource dataSource, String table) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select count(*) from \"" + table + "\"")) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError("cannot count " + table + ": " + e.getMessage(), e);
        }
    }
}
