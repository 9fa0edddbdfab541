package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/** NodeCordons is the store's cordons ({@code mesh node cordon}): the nodes no new assignment, take or restore goes onto. */
public final class NodeCordons {

    private NodeCordons() {
    }

    /** The cordoned nodes' names. */
    public static Set<String> cordoned(Connection c) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (PreparedStatement s = c.prepareStatement("select name from nodes where cordoned order by name");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        return names;
    }

    /** Cordons {@code node} or lifts its cordon; whether it was cordoned before. */
    public static boolean set(Connection c, String node, boolean cordoned) throws SQLException {
        boolean before = cordoned(c).contains(node);
        try (PreparedStatement s = c.prepareStatement("update nodes set cordoned = ? where name = ?")) {
            s.setBoolean(1, cordoned);
            s.setString(2, node);
            s.executeUpdate();
        }
        return before;
    }
}
