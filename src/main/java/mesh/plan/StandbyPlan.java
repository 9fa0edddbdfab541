package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * StandbyPlan is what {@code mesh seat add NODE} changes, decided purely (docs/seat.md, "A standby seat"): on the
 * seat's store, a replication role, a {@code pg_hba.conf} line that lets it stream, and a physical replication slot
 * named after the standby (so the seat keeps the WAL a standby that is away still needs); on the standby, the
 * {@code mesh-standby} module: the seat's store image, its data folder filled once by PostgreSQL's own
 * {@code pg_basebackup} ({@code -R}: it writes {@code primary_conninfo} naming the standby as its
 * {@code application_name}, which is the name {@code synchronous_standby_names} and {@code pg_stat_replication}
 * use), then a hot standby that streams. Nothing of mesh's own replicates: only PostgreSQL does.
 */
public final class StandbyPlan {

    /** The role the standby streams as; it can replicate and log in, nothing else. */
    public static final String ROLE = "mesh_replica";
    /** The standby's module, run on the standby node beside its other modules. */
    public static final String MODULE = "mesh-standby";
    /** The module's secret holding the replication role's password (sealed in the store, as every secret). */
    public static final String PASSWORD_SECRET = "replication-password";
    /** Where the store image keeps its data, on the seat and on the standby alike. */
    public static final String DATA = "/var/lib/postgresql/data";

    private StandbyPlan() {
    }

    /** The replication slot of {@code standby}: PostgreSQL allows lower-case letters, digits and '_'. */
    public static String slot(String standby) {
        return "mesh_standby_" + standby.replace('-', '_');
    }

    /** The {@code pg_hba.conf} line that lets {@link #ROLE} stream from any address, with its password. */
    public static String hbaLine() {
        return "host replication " + ROLE + " all scram-sha-256";
    }

    /**
     * The seat's {@code pg_hba.conf} with {@link #hbaLine()} added before any other line, or empty when a line already
     * lets {@link #ROLE} (or every role) replicate with a password; pg_hba's first matching line wins, so the line
     * goes first.
     */
    public static Optional<String> hbaWith(String current) {
        for (String raw : current.split("\n")) {
            String[] w = raw.strip().split("\\s+");
            if (w.length >= 5 && w[0].equals("host") && w[1].equals("replication") && (w[2].equals(ROLE) || w[2].equals("all"))
                    && w[3].equals("all") && (w[4].equals("scram-sha-256") || w[4].equals("md5"))) {
                return Optional.empty();
            }
        }
        return Optional.of("# added by mesh seat add: the standby streams the store (docs/seat.md)\n" + hbaLine() + "\n" + current);
    }

    /**
     * The SQL run on the seat's store, in order, each safe to run again: the role (its password set anew, so a rerun
     * after a lost password works), the slot when it is missing. {@code password} is bound as a literal: PostgreSQL's
     * {@code CREATE ROLE} takes no parameters, so it is quoted here.
     */
    public static List<String> seatSql(String standby, String password) {
        String pw = "'" + password.replace("'", "''") + "'";
        List<String> sql = new ArrayList<>();
        sql.add("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + ROLE + "') THEN "
                + "CREATE ROLE " + ROLE + " WITH REPLICATION LOGIN; END IF; END $$");
        sql.add("ALTER ROLE " + ROLE + " WITH REPLICATION LOGIN PASSWORD " + pw);
        sql.add("SELECT pg_create_physical_replication_slot('" + slot(standby) + "') WHERE NOT EXISTS "
                + "(SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot(standby) + "')");
        return sql;
    }

    /**
     * The shell the standby's container runs as root: its data folder handed to postgres, filled by
     * {@code pg_basebackup} from {@code seatAddress} when it holds no cluster yet (a restarted standby keeps its own),
     * then the image's entrypoint with {@code postgres}, which finds {@code standby.signal} and streams.
     */
    public static String script(String seatAddress, String standby) {
        String conn = "host=" + seatAddress + " port=5432 user=" + ROLE + " application_name=" + standby;
        return String.join("\n",
                "set -eu",
                "D=" + DATA,
                "mkdir -p \"$D\" /var/run/postgresql",
                "chown postgres:postgres \"$D\" /var/run/postgresql",
                "chmod 700 \"$D\"",
                "if [ ! -s \"$D/PG_VERSION\" ]; then",
                "  su -p -s /bin/sh postgres -c 'pg_basebackup -d \"" + conn + "\" -D " + DATA + " -X stream -R -S "
                        + slot(standby) + " -c fast'",
                "fi",
                "exec docker-entrypoint.sh postgres");
    }

    /** Whether {@code module} is a standby's: {@link #MODULE}, or {@code mesh-standby-NODE} ({@link FormerSeat#standbyModule}). */
    public static boolean isModule(String module) {
        return MODULE.equals(module) || module != null && module.startsWith(MODULE + "-");
    }

    /** The {@link #MODULE} manifest placed on the standby: the seat's store image, the script above, its health check. */
    public static String manifest(String storeImage, String seatAddress, String standby) {
        return manifest(MODULE, storeImage, seatAddress, standby);
    }

    /** As {@link #manifest(String, String, String)}, the module named {@code module}. */
    public static String manifest(String module, String storeImage, String seatAddress, String standby) {
        String script = script(seatAddress, standby).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        return String.join("\n",
                "# The seat's standby, as mesh seat add places it (docs/seat.md): a hot standby of the store that streams from the seat.",
                "module: " + module,
                "components:",
                "  " + module + ".postgres:",
                "    image: \"" + storeImage.replace("\"", "") + "\"",
                "    args: [sh, -c, \"" + script + "\"]",
                "    env:",
                "      PGPASSWORD: {secret: " + PASSWORD_SECRET + "}",
                "    volumes: {data: " + DATA + "}",
                "    ports: [5432]",
                "    health: {command: [pg_isready, -h, /var/run/postgresql], timeoutSeconds: 600}",
                "    stop-timeout: 60s",
                "");
    }
}
