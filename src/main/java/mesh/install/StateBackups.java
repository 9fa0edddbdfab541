package mesh.install;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.trust.RecoveryKey;
import mesh.trust.StateContent;
import mesh.trust.StateSeal;
import mesh.wire.Build;

/**
 * StateBackups makes a seat's state backup (its files, {@link SeatState}, and the store's rows, {@code StoreCopy}'s
 * parts, sealed by {@link StateSeal}) and opens one for a rebuild, refusing before anything is written: a bad artifact
 * by {@link StateSeal.Reason}, a machine that has a mesh or a backup that cannot raise a seat by
 * {@link SeatState#problems}.
 */
public final class StateBackups {

    private StateBackups() {
    }

    /** Opened is a state backup ready to raise a seat: its header, the seat's files and the store's rows. */
    public record Opened(StateSeal.Header header, Map<String, byte[]> seatFiles, Map<String, byte[]> storeRows) {
    }

    /**
     * The state backup of the seat at {@code stateDir} as it is now: its files and the rows of the store at
     * {@code storeUrl} (with the seat's {@code mesh-store} password unless the URL carries its own), sealed under the
     * seat's recovery key; an {@link InstallFailure} naming what is missing (no recovery passphrase set, no seat here).
     */
    public static byte[] ofSeat(Path stateDir, String storeUrl, Instant now) {
        Path keyFile = stateDir.resolve("install").resolve(RecoveryKey.FILE);
        if (!java.nio.file.Files.isRegularFile(keyFile)) {
            throw new InstallFailure("no recovery passphrase is set on this seat (" + keyFile + " is missing): set one with"
                    + " 'mesh seat passphrase', then make the state backup");
        }
        mesh.plan.JoinRerun.Held held = JoinedState.read(stateDir);
        String url = storeUrl(held, storeUrl);
        try {
            RecoveryKey key = RecoveryKey.read(keyFile);
            Map<String, byte[]> rows;
            try (java.sql.Connection c = connect(stateDir, storeUrl, url)) {
                rows = mesh.store.StoreCopy.copyOut(c);
            }
            return make(stateDir, rows, key, held.caHash(), now);
        } catch (IOException e) {
            throw new InstallFailure("cannot make the state backup: " + e.getMessage(), e);
        } catch (java.sql.SQLException e) {
            throw new InstallFailure("cannot copy the store at " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records in the store that the state backup {@code artifact} is at {@code place} ({@code file:/path}), for
     * {@code mesh status} and {@code mesh seat backup list}.
     */
    public static void record(Path stateDir, String storeUrl, byte[] artifact, String place) {
        String url = storeUrl(JoinedState.read(stateDir), storeUrl);
        StateSeal.Header h = StateSeal.header(artifact);
        try (java.sql.Connection c = connect(stateDir, storeUrl, url)) {
            mesh.store.StateBackupRecords.record(c, new mesh.store.StateBackupRecords.Row(h.made(), place, artifact.length, h.mesh()));
        } catch (IOException | java.sql.SQLException e) {
            throw new InstallFailure("the state backup is at " + place + " but the store at " + url + " did not record it: "
                    + e.getMessage(), e);
        }
    }

    /** The newest {@code limit} state backups the store at {@code storeUrl} (or the seat's own) recorded. */
    public static List<mesh.store.StateBackupRecords.Row> recorded(Path stateDir, String storeUrl, int limit) {
        String url = storeUrl(JoinedState.read(stateDir), storeUrl);
        try (java.sql.Connection c = connect(stateDir, storeUrl, url)) {
            return mesh.store.StateBackupRecords.newest(c, limit);
        } catch (IOException | java.sql.SQLException e) {
            throw new InstallFailure("cannot read the state backups the store at " + url + " recorded: " + e.getMessage(), e);
        }
    }

    /**
     * Pushes {@code artifact} to the registry of node {@code node} ({@code http://ADDRESS:5000}, its address as the store
     * has it), never the seat's own; the place to record: {@code node:NODE REGISTRY/mesh-state:TAG}.
     */
    public static String pushToNode(Path stateDir, String storeUrl, String node, byte[] artifact) {
        mesh.plan.JoinRerun.Held held = JoinedState.read(stateDir);
        if (node.equals(held.node())) {
            throw new InstallFailure("node " + node + " is the seat: a state backup in its own registry is lost with it;"
                    + " name another node");
        }
        String url = storeUrl(held, storeUrl);
        String address;
        try (java.sql.Connection c = connect(stateDir, storeUrl, url);
             java.sql.PreparedStatement s = c.prepareStatement("select address from nodes where name = ?")) {
            s.setString(1, node);
            try (java.sql.ResultSet r = s.executeQuery()) {
                address = r.next() ? r.getString(1) : null;
            }
        } catch (IOException | java.sql.SQLException e) {
            throw new InstallFailure("cannot ask the store at " + url + " for node " + node + ": " + e.getMessage(), e);
        }
        if (address == null) {
            throw new InstallFailure("the mesh has no node " + node + " ('mesh node list')");
        }
        mesh.bundle.HttpRegistry registry = new mesh.bundle.HttpRegistry("http://" + address + ":5000");
        try {
            return "node:" + node + " " + StateBackupRegistry.push(registry, artifact, StateSeal.header(artifact).made());
        } catch (RuntimeException e) {
            throw new InstallFailure("cannot push the state backup to node " + node + "'s registry " + registry.address()
                    + " (mesh-registry must run there: 'mesh take " + node + " mesh-registry'): " + e.getMessage(), e);
        }
    }

    private static String storeUrl(mesh.plan.JoinRerun.Held held, String storeUrl) {
        if (storeUrl == null && held.address() == null) {
            throw new InstallFailure("this machine is no seat of a mesh (no agent certificate with its address under the state"
                    + " folder's tls/): run it on the seat, or give --state-dir");
        }
        return storeUrl != null ? storeUrl : "jdbc:postgresql://" + held.address() + ":5432/mesh";
    }

    private static java.sql.Connection connect(Path stateDir, String storeUrl, String url) throws IOException, java.sql.SQLException {
        return storeUrl != null ? java.sql.DriverManager.getConnection(url)
                : java.sql.DriverManager.getConnection(url, "mesh",
                        java.nio.file.Files.readString(stateDir.resolve("install/store-password")).strip());
    }

    /** The artifact of the seat at {@code stateDir} with {@code storeRows}, for mesh {@code mesh} (its CA's hash). */
    public static byte[] make(Path stateDir, Map<String, byte[]> storeRows, RecoveryKey key, String mesh, Instant now)
            throws IOException {
        Map<String, byte[]> parts = new LinkedHashMap<>(SeatState.parts(stateDir));
        parts.putAll(storeRows);
        Build build = Build.current();
        return StateSeal.seal(key, build.words(), build.wireLevel(), mesh, now, new StateContent(parts).encode());
    }

    /**
     * The artifact opened for a rebuild into {@code stateDir}; a {@link StateSeal.Refused} for a bad artifact, an
     * {@link InstallFailure} listing what keeps this machine from taking it. Nothing is written.
     */
    public static Opened open(byte[] artifact, char[] passphrase, Path stateDir) {
        return open(artifact, passphrase, stateDir, false);
    }

    /** The same, for a rebuild this machine began ({@code resuming}: see {@link SeatState#problems(Path, Map, boolean)}). */
    public static Opened open(byte[] artifact, char[] passphrase, Path stateDir, boolean resuming) {
        StateSeal.Opened opened = StateSeal.open(artifact, passphrase, Build.current().wireLevel());
        StateContent content;
        try {
            content = StateContent.decode(opened.content());
        } catch (IllegalArgumentException e) {
            throw new StateSeal.Refused(StateSeal.Reason.ALTERED, "the state backup opened but " + e.getMessage());
        }
        Map<String, byte[]> seat = new LinkedHashMap<>();
        Map<String, byte[]> store = new LinkedHashMap<>();
        content.parts().forEach((name, bytes) -> (name.startsWith("store/") ? store : seat).put(name, bytes));
        List<String> problems = SeatState.problems(stateDir, seat, resuming);
        if (!problems.isEmpty()) {
            throw new InstallFailure("the state backup is not rebuilt here, nothing was changed:\n  " + String.join("\n  ", problems));
        }
        return new Opened(opened.header(), seat, store);
    }
}
