package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Map;
import java.util.UUID;
import mesh.wire.Build;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AgentBuildsIT: the builds the controller heard of its agents (V10__agent_builds.sql) on the test bed's real
 * PostgreSQL, in a database of this test's own migrated as the controller migrates it: a build heard reads
 * back, hearing the same again writes nothing (its time stays), a new one replaces it, a removed node's goes.
 */
class AgentBuildsIT {

    final String database = "mesh_it_" + UUID.randomUUID().toString().substring(0, 8);
    final AgentBuilds builds = new AgentBuilds();

    @BeforeEach
    void database() throws SQLException {
        try (Connection c = DriverManager.getConnection(PushInputsIT.POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("create database " + database);
        }
        Flyway.configure().dataSource(PushInputsIT.POSTGRES + database, "mesh", "mesh").locations("classpath:db/migration")
                .load().migrate();
    }

    @AfterEach
    void drop() throws SQLException {
        try (Connection c = DriverManager.getConnection(PushInputsIT.POSTGRES + "postgres", "mesh", "mesh")) {
            c.createStatement().execute("drop database if exists " + database + " with (force)");
        }
    }

    @Test
    void aBuildHeardIsKeptUntilAnotherIsHeardAndGoesWithItsNode() throws Exception {
        Build old = new Build("0.1.0", "4f70c7e1a2b3");
        Build next = new Build("0.2.0", "7200bac816ba");
        try (Connection c = DriverManager.getConnection(PushInputsIT.POSTGRES + database, "mesh", "mesh")) {
            assertEquals(Map.of(), builds.builds(c));
            builds.heard(c, Map.of("n1", old, "n2", new Build("0.1.0", null)));
            assertEquals(Map.of("n1", old, "n2", new Build("0.1.0", null)), builds.builds(c));

            Timestamp first = heardAt(c, "n1");
            Thread.sleep(20);
            builds.heard(c, Map.of("n1", old));
            assertEquals(first, heardAt(c, "n1"), "the same build heard again writes nothing");

            builds.heard(c, Map.of("n1", next));
            assertEquals(next, builds.builds(c).get("n1"));

            builds.forget(c, "n1");
            assertEquals(Map.of("n2", new Build("0.1.0", null)), builds.builds(c));
        }
    }

    private static Timestamp heardAt(Connection c, String node) throws SQLException {
        try (ResultSet r = c.createStatement().executeQuery("select heard_at from agent_builds where node = '" + node + "'")) {
            r.next();
            return r.getTimestamp(1);
        }
    }
}
