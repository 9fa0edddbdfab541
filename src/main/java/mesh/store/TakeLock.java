package mesh.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * TakeLock is held by the runner that carries out a module's take, so two controllers (or two
 * requests) never carry out one take at once: a session-level PostgreSQL advisory lock on the
 * module's name, on a connection of its own, like {@link PushLock}. A controller that dies mid-take
 * ends its session, which releases the lock: a later {@code mesh take}, or the next controller's
 * start, resumes the take.
 */
public final class TakeLock implements AutoCloseable {

    /** The first key of the two-key advisory lock ("take" in ASCII); the second is the module name's hash. */
    static final int KEY = 0x74616b65;

    private final Connection connection;
    private final String module;

    private TakeLock(Connection connection, String module) {
        this.connection = connection;
        this.module = module;
    }

    /** Takes the lock for {@code module} on {@code c} (which it then owns), or null when another session holds it. */
    static TakeLock tryTake(Connection c, String module) throws SQLException {
        boolean taken = false;
        try (PreparedStatement s = c.prepareStatement("select pg_try_advisory_lock(?, hashtext(?))")) {
            s.setInt(1, KEY);
            s.setString(2, module);
            try (ResultSet r = s.executeQuery()) {
                taken = r.next() && r.getBoolean(1);
            }
        } finally {
            if (!taken) {
                c.close();
            }
        }
        return taken ? new TakeLock(c, module) : null;
    }

    /** Releases the lock; a connection whose unlock fails is dropped, which releases it too. */
    @Override
    public void close() {
        try {
            try (PreparedStatement s = connection.prepareStatement("select pg_advisory_unlock(?, hashtext(?))")) {
                s.setInt(1, KEY);
                s.setString(2, module);
                s.execute();
            }
            connection.close();
        } catch (SQLException e) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException ignored) {
                // the session is gone either way, and the lock with it
            }
        }
    }
}
