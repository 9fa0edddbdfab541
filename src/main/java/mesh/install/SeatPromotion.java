package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import mesh.plan.JoinRerun;
import mesh.plan.SeatKeys;
import mesh.plan.SeatPromote;
import mesh.plan.SeatPromote.Step;
import mesh.trust.MeshCa;
import mesh.trust.TlsDir;

/**
 * SeatPromotion carries out {@link SeatPromote} on the standby, as root, when the seat is lost (docs/seat.md): each
 * step done is appended to {@code STATE-DIR/install/promote} (and the epoch chosen), so a promote cut short resumes at
 * the first step not done with the same epoch. The store is the standby's own {@code mesh-standby}, reached at this
 * node's address as the seat's controller reaches its store; the controller is {@code mesh controller serve} from this
 * node's own install ({@code STATE-DIR/app}), started detached as the agent is, its pid in
 * {@code install/controller.pid} and its log in {@code controller.log}.
 */
public final class SeatPromotion {

    private final Path stateDir;
    private final String named;
    private final Path operatorConfig;
    private final Consumer<String> say;
    private final Path journal;
    private JoinRerun.Held held;

    public SeatPromotion(Path stateDir, String named, Path operatorConfig, Consumer<String> say) {
        this.stateDir = stateDir.toAbsolutePath();
        this.named = named;
        this.operatorConfig = operatorConfig;
        this.say = say;
        this.journal = this.stateDir.resolve("install/promote");
    }

    /** Runs every step not done yet; the controller's URL. */
    public String run() {
        Set<Step> done = recorded();
        for (var next = SeatPromote.next(done); next.isPresent(); next = SeatPromote.next(done)) {
            Step step = next.get();
            long t0 = System.nanoTime();
            say.accept("  " + step.word() + " …");
            run(step);
            done.add(step);
            if (step != Step.CHECK) {
                append("step " + step.word());
            }
            say.accept("  " + step.word() + ": done in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        return url();
    }

    private void run(Step step) {
        switch (step) {
            case CHECK -> check();
            case STORE -> promoteStore();
            case CERTIFICATE -> certificate();
            case CONTROLLER -> controller();
            case AGENTS -> agents();
            case CONFIG -> config();
            default -> throw new InstallFailure("no such step " + step);
        }
    }

    private void check() {
        held = JoinedState.read(stateDir);
        Set<String> present = SeatKeys.NEEDED.stream().filter(k -> Files.isRegularFile(stateDir.resolve(k))).collect(Collectors.toSet());
        List<String> problems = SeatPromote.problems(named, held.node(), present);
        if (!problems.isEmpty()) {
            throw new InstallFailure("this machine cannot become the seat; nothing was changed:\n  " + String.join("\n  ", problems));
        }
    }

    private Connection store() throws SQLException, IOException {
        return DriverManager.getConnection("jdbc:postgresql://" + held.address() + ":5432/mesh", "mesh",
                Files.readString(stateDir.resolve("install/store-password")).strip());
    }

    /** pg_promote() on the standby's store (nothing when it is already promoted), then no synchronous standby. */
    private void promoteStore() {
        try (Connection c = store(); Statement s = c.createStatement()) {
            try (var r = s.executeQuery("select pg_is_in_recovery()")) {
                r.next();
                if (r.getBoolean(1)) {
                    say.accept("  " + lossWords(c));
                    try (var p = s.executeQuery("select pg_promote(true, 60)")) {
                        p.next();
                        if (!p.getBoolean(1)) {
                            throw new InstallFailure("the store on " + held.address() + " did not finish its promotion within 60 s");
                        }
                    }
                }
            }
            s.execute("alter system reset synchronous_standby_names");
            s.execute("select pg_reload_conf()");
        } catch (SQLException | IOException e) {
            throw new InstallFailure("cannot promote the store on " + held.address() + ":5432: " + e.getMessage(), e);
        }
    }

    /** What this promote may lose, from the standby's own store before its promotion ({@link SeatPromote#lossWords}). */
    private String lossWords(Connection c) throws SQLException {
        try (var p = c.prepareStatement("select (select last_msg_receipt_time from pg_stat_wal_receiver limit 1),"
                + " pg_last_xact_replay_timestamp(), (select out_of_sync from standby_seats where node = ?)")) {
            p.setString(1, held.node());
            try (var r = p.executeQuery()) {
                r.next();
                return SeatPromote.lossWords(instant(r.getTimestamp(1)), instant(r.getTimestamp(2)), instant(r.getTimestamp(3)));
            }
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private TlsDir tls() {
        return new TlsDir(stateDir.resolve("tls"));
    }

    private void certificate() {
        try {
            Instant now = Instant.now();
            MeshCa ca = tls().ensureCa(held.node(), now);
            tls().ensureIssued(ca, "controller", MeshCa.Role.CONTROLLER, MeshCa.CONTROLLER,
                    List.of(held.address(), "127.0.0.1", "localhost", held.node()), now);
        } catch (IOException e) {
            throw new InstallFailure("cannot issue the controller's certificate under " + tls().dir() + ": " + e.getMessage(), e);
        }
    }

    private void controller() {
        long epoch;
        try (Connection c = store(); Statement s = c.createStatement(); var r = s.executeQuery("select epoch from controller_epoch")) {
            r.next();
            epoch = SeatPromote.epoch(r.getLong(1), chosenEpoch(), System.currentTimeMillis());
        } catch (SQLException | IOException e) {
            throw new InstallFailure("cannot read the store's controller epoch: " + e.getMessage(), e);
        }
        append("epoch " + epoch);
        Map<String, String> env = new LinkedHashMap<>(tls().serveEnv("controller"));
        env.put("MESH_CA_KEY", tls().caKey().toString());
        env.put("MESH_STORE_URL", "jdbc:postgresql://" + held.address() + ":5432/mesh");
        env.put("MESH_STORE_USER", "mesh");
        env.put("MESH_STORE_PASSWORD_FILE", stateDir.resolve("install/store-password").toString());
        env.put("MESH_SECRETS_KEY_FILE", stateDir.resolve("install/secrets.key").toString());
        env.put("MESH_CONTROLLER_TOKEN_FILE", stateDir.resolve("install/controller-token").toString());
        env.put("MESH_CONTROLLER_LISTEN", held.address() + ":7700");
        env.put("MESH_CONTROLLER_EPOCH", Long.toString(epoch));
        env.put("MESH_SEAT_NODE", held.node());
        ProcessBuilder b = new ProcessBuilder("setsid", stateDir.resolve("app/bin/mesh").toString(), "controller", "serve")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stateDir.resolve("controller.log").toFile()))
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        AgentSetup.clean(b.environment());
        b.environment().putAll(env);
        try {
            Process p = b.start();
            Files.writeString(stateDir.resolve("install/controller.pid"), p.pid() + "\n");
        } catch (IOException e) {
            throw new InstallFailure("cannot start the controller: " + e.getMessage(), e);
        }
        TempController.await(api(), Duration.ofMinutes(2), stateDir.resolve("controller.log"));
        say.accept("      the controller on " + held.node() + " answers at " + url() + ", epoch " + epoch);
    }

    /** One status look through the new controller: every agent it reaches records the epoch. */
    private void agents() {
        List<mesh.wire.NodeStatus> nodes = api().status();
        nodes.forEach(n -> say.accept("      " + n.node().name() + ": " + (n.agent() != null ? "reached, knows the new seat"
                : "not reached (" + n.agentError() + "): it learns the new seat at its next call")));
    }

    private void config() {
        try {
            Map<String, String> before = Files.isRegularFile(operatorConfig) ? mesh.cli.ConfigFile.read(operatorConfig) : Map.of();
            Files.createDirectories(operatorConfig.getParent());
            AgentSetup.write(operatorConfig, "# The operator's mesh CLI settings, written by mesh seat promote: every seat, the promoted one first.\n"
                    + "MESH_CONTROLLER=" + SeatPromote.controllers(url(), before.get("MESH_CONTROLLER"))
                    + "\nMESH_TOKEN=" + Files.readString(stateDir.resolve("install/controller-token")).strip()
                    + "\n# the mesh CA: the only one the CLI trusts for the controller's certificate\nMESH_CA=" + tls().caCert() + "\n",
                    "rw-------");
        } catch (IOException e) {
            throw new InstallFailure("cannot write " + operatorConfig + ": " + e.getMessage(), e);
        }
    }

    private SeatApi api() {
        try {
            return new SeatApi(url(), Files.readString(stateDir.resolve("install/controller-token")).strip(),
                    mesh.trust.TlsContexts.trusting(mesh.trust.Pem.certificate(tls().caCert())));
        } catch (IOException e) {
            throw new InstallFailure("cannot read the admin token: " + e.getMessage(), e);
        }
    }

    private String url() {
        return "https://" + (held == null ? JoinedState.read(stateDir).address() : held.address()) + ":7700";
    }

    private Set<Step> recorded() {
        Set<Step> done = EnumSet.noneOf(Step.class);
        lines().stream().filter(l -> l.startsWith("step ")).forEach(l -> done.add(Step.valueOf(l.substring(5).toUpperCase(java.util.Locale.ROOT))));
        return done;
    }

    private long chosenEpoch() {
        return lines().stream().filter(l -> l.startsWith("epoch ")).mapToLong(l -> Long.parseLong(l.substring(6))).max().orElse(0);
    }

    private List<String> lines() {
        try {
            return Files.isRegularFile(journal) ? Files.readAllLines(journal) : List.of();
        } catch (IOException e) {
            throw new InstallFailure("cannot read " + journal + ": " + e.getMessage(), e);
        }
    }

    private void append(String line) {
        try {
            Files.writeString(journal, line + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new InstallFailure("cannot record the promote's progress in " + journal + ": " + e.getMessage(), e);
        }
    }
}
