package mesh.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import mesh.wire.Build;

/**
 * AgentBuilds is the SQL of the build each node's agent last reported in its status (V10__agent_builds.sql):
 * what {@code mesh node list} shows without asking every agent. Written when the controller hears a status
 * ({@code mesh status}, a push), only where it changed; its methods take the verb's connection.
 */
@ApplicationScoped
public class AgentBuilds {

    /** The last build heard of each node's agent, by node; a node whose agent never said has none. */
    public Map<String, Build> builds(Connection c) throws SQLException {
        Map<String, Build> builds = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("select node, version, git_commit from agent_builds");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                builds.put(r.getString(1), new Build(r.getString(2), r.getString(3)));
            }
        }
        return builds;
    }

    /** Notes the builds just heard (by node), writing only those that differ from what is kept. */
    public void heard(Connection c, Map<String, Build> heard) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into agent_builds (node, version, git_commit) values (?, ?, ?)
                on conflict (node) do update set version = excluded.version, git_commit = excluded.git_commit, heard_at = now()
                where agent_builds.version is distinct from excluded.version
                   or agent_builds.git_commit is distinct from excluded.git_commit""")) {
            for (Map.Entry<String, Build> e : heard.entrySet()) {
                s.setString(1, e.getKey());
                s.setString(2, e.getValue().version());
                s.setString(3, e.getValue().commit());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** Forgets a removed node's build, so a node added later under its name shows none until heard. */
    public void forget(Connection c, String node) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from agent_builds where node = ?")) {
            s.setString(1, node);
            s.executeUpdate();
        }
    }
}
