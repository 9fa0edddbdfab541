package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OperatorConfig reads the operator's config file ({@code ~/.config/mesh/config}, which {@code mesh install} writes with
 * mode 0600), refusing what would otherwise pass unseen:
 * <ul>
 * <li>a key the CLI does not read: a typo ({@code MESH_CONTROLER=}) would leave the verb on the default controller with
 *     the file's token, so it is refused naming the line and the key meant;</li>
 * <li>a file that others than its owner may read or write: it holds the operator token, which is every write to the
 *     mesh. Refused, not warned about, as ssh refuses a private key others can read: a warning on every verb is read
 *     once and then no more, and {@code chmod 600} mends it at once.</li>
 * </ul>
 */
final class OperatorConfig {

    /** The keys the file holds: the controller's URL, the operator token, the mesh CA. */
    static final List<String> KEYS = List.of("MESH_CONTROLLER", "MESH_TOKEN", "MESH_CA");

    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private OperatorConfig() {
    }

    /** The file's settings; a file others may read, or a line with an unknown key, is refused (every such line at once). */
    static Map<String, String> read(Path file) {
        String mode = openMode(file);
        if (mode != null) {
            throw new VerbFailure(file + " may be read by others than its owner (mode " + mode + "), and it holds the"
                    + " operator token: run 'chmod 600 " + file + "', then again");
        }
        Map<String, String> values = new HashMap<>();
        List<String> unknown = new ArrayList<>();
        for (ConfigFile.Line line : ConfigFile.lines(file)) {
            if (KEYS.contains(line.key())) {
                values.put(line.key(), line.value());
            } else {
                String near = nearest(line.key());
                unknown.add(file + ":" + line.number() + ": " + line.key() + " is no setting of the mesh CLI"
                        + (near == null ? "" : " (did you mean " + near + "?)"));
            }
        }
        if (!unknown.isEmpty()) {
            throw new VerbFailure(String.join("\n  ", unknown) + "\n  the file holds " + String.join(", ", KEYS)
                    + " alone; mend it, or set MESH_CONTROLLER and MESH_TOKEN in the environment");
        }
        return values;
    }

    /** The file's mode as {@code 0644} when group or others have any permission on it; null when none (or no POSIX). */
    static String openMode(Path file) {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException | IOException e) {
            return null;   // no POSIX permissions to check; reading it says what is wrong with it, if anything
        }
        if (perms.stream().noneMatch(OTHERS::contains)) {
            return null;
        }
        int bits = 0;
        for (PosixFilePermission p : perms) {
            bits |= 1 << (8 - p.ordinal());
        }
        return String.format("0%03o", bits);
    }

    /** The known key {@code key} is most likely a typo of (at most two edits away), or null. */
    static String nearest(String key) {
        String best = null;
        int least = 3;
        for (String k : KEYS) {
            int d = distance(key.toUpperCase(java.util.Locale.ROOT), k);
            if (d < least) {
                least = d;
                best = k;
            }
        }
        return best;
    }

    /** Levenshtein's edit distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
