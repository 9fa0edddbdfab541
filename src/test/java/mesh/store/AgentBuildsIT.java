package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Map;
import mesh.wire.Build;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AgentBuildsIT: the builds the controller heard of its agents (V10__agent_builds.sql) on the test bed's real
 * PostgreSQL, in a database of this test's own migrated as the controller migrates it: a build heard reads
 * back, hearing the same again writes nothing (its time stays), a new one replaces it, a removed node's goes.
 */
class AgentBuildsIT {

    @RegisterExtension
    final MigratedDatabase database = new MigratedDatabase();
    final AgentBuilds builds = new AgentBuilds();

    @Test
    void aBuildHeardIsKeptUntilAnotherIsHeardAndGoesWithItsNode() throws Exception {
        Build old = new Build("0.1.0", "4f70c7e1a2b3");
        Build next = new Build("0.2.0", "7200bac816ba");
        try (Connection c = database.connect()) {
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
