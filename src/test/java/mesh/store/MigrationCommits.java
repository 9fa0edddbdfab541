package mesh.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * MigrationCommits reads, from a migrated store, whether each migration was committed together with its row in
 * Flyway's history ({@link Migrations}): PostgreSQL stamps every row with the transaction that wrote it ({@code xmin}),
 * so a history row written in the migration's own transaction carries the id of the transaction that wrote the
 * migration's tables, columns and types into the catalogue. Every migration here changes the schema.
 */
public final class MigrationCommits {

    private static final String WROTE = String.join(" union all ",
            "select 1 from pg_class x where x.xmin = h.xmin", "select 1 from pg_attribute x where x.xmin = h.xmin",
            "select 1 from pg_type x where x.xmin = h.xmin", "select 1 from pg_constraint x where x.xmin = h.xmin",
            "select 1 from pg_index x where x.xmin = h.xmin", "select 1 from pg_proc x where x.xmin = h.xmin",
            "select 1 from pg_trigger x where x.xmin = h.xmin");

    private MigrationCommits() {
    }

    /** The versions recorded as applied whose history row was committed apart from what the migration wrote. */
    public static List<String> recordedApart(Connection c) throws SQLException {
        return versions(c, "select h.version from flyway_schema_history h"
                + " where h.version is not null and h.success and not exists (" + WROTE + ") order by h.installed_rank");
    }

    /** The versions recorded as applied. */
    public static List<String> recorded(Connection c) throws SQLException {
        return versions(c, "select version from flyway_schema_history where version is not null and success order by installed_rank");
    }

    private static List<String> versions(Connection c, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(query)) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }
}
