package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * PushLock serialises pushes across every controller sharing one store: a session-level PostgreSQL
 * advisory lock, held on a connection of its own that runs no transaction, so a push that waits
 * on agents pins no snapshot and holds no row. It is released on {@link #close}; a controller that
 * dies mid-push ends its session, and PostgreSQL releases the lock with it.
 */
public final class PushLock implements AutoCloseable {

    /** KEY is the advisory lock's key ("mesh" in ASCII). */
    static final long KEY = 0x6d657368L;

    private static final Logger LOG = Logger.getLogger("mesh.store");

    private final Connection connection;

    private PushLock(Connection connection) {
        this.connection = connection;
    }

    /** Takes the lock on {@code c} (which it then owns and closes), or null when another session holds it. */
    static PushLock tryTake(Connection c) throws SQLException {
        boolean taken = false;
        try (PreparedStatement s = c.prepareStatement("select pg_try_advisory_lock(?)")) {
            s.setLong(1, KEY);
            try (ResultSet r = s.executeQuery()) {
                taken = r.next() && r.getBoolean(1);
            }
        } finally {
            if (!taken) {
                c.close();
            }
        }
        return taken ? new PushLock(c) : null;
    }

    /**
     * Releases the lock and returns the connection to the pool. If the unlock itself fails, the
     * connection is aborted rather than pooled: a pooled session still holding the lock would
     * refuse every later push.
     */
    @Override
    public void close() {
        try {
            try (PreparedStatement s = connection.prepareStatement("select pg_advisory_unlock(?)")) {
                s.setLong(1, KEY);
                s.execute();
            }
            connection.close();
        } catch (SQLException e) {
            LOG.warnf("releasing the push lock failed (%s); dropping its connection, which releases it", e.getMessage());
            try {
                connection.abort(Runnable::run);
            } catch (SQLException ignored) {
                // the session is gone either way, and the lock with it
            }
        }
    }
}
