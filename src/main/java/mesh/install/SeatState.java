package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SeatState is what of the seat's own files a state backup holds, beside the store's rows: the mesh CA (certificate and
 * key), the secrets key, the admin token, the store's password and the installer's generated secrets. Each is a part
 * {@code keys/PATH} with PATH its place under the state dir, so a rebuild writes each back where it was (0600): the
 * same CA (every agent's certificate stays valid), the same tokens, the secrets opening. The recovery key is not one:
 * a new machine derives it again from the passphrase.
 */
public final class SeatState {

    /** The files, under the state dir, a state backup holds when the seat has them. */
    public static final List<String> FILES = List.of("tls/ca.crt", "tls/ca.key", "install/secrets.key",
            "install/controller-token", "install/store-password", "install/secrets.env");

    /** The files without which a state backup cannot raise a seat. */
    static final List<String> NEEDED = List.of("tls/ca.crt", "tls/ca.key", "install/secrets.key", "install/controller-token");

    private static final String PART = "keys/";

    private SeatState() {
    }

    /** The seat's files as parts; an IOException naming a needed file that is missing. */
    public static Map<String, byte[]> parts(Path stateDir) throws IOException {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        for (String file : FILES) {
            Path path = stateDir.resolve(file);
            if (Files.isRegularFile(path)) {
                parts.put(PART + file, Files.readAllBytes(path));
            } else if (NEEDED.contains(file)) {
                throw new IOException("the seat's " + path + " is missing: this is no seat a state backup can be made of");
            }
        }
        return parts;
    }

    /**
     * What keeps {@code stateDir} from taking a rebuilt seat's files: a mesh already there (its CA, its install
     * journal, its agent's certificate), or a backup without a needed file. Empty when it may; nothing is written here.
     */
    public static List<String> problems(Path stateDir, Map<String, byte[]> parts) {
        return problems(stateDir, parts, false);
    }

    /**
     * The same; when {@code resuming} (a rebuild this machine began: its journal records the keys written back), the
     * mesh found here is that rebuild's own and is no problem.
     */
    public static List<String> problems(Path stateDir, Map<String, byte[]> parts, boolean resuming) {
        List<String> problems = new ArrayList<>();
        for (String file : resuming ? List.<String>of() : List.of("tls/ca.key", "tls/agent.crt", "install/steps")) {
            if (Files.exists(stateDir.resolve(file))) {
                problems.add("this machine already has a mesh (" + stateDir.resolve(file) + "): rebuild on a machine without one,"
                        + " or 'mesh uninstall --delete-data' first");
                break;
            }
        }
        for (String file : NEEDED) {
            if (!parts.containsKey(PART + file)) {
                problems.add("the state backup holds no " + file + ": it cannot raise a seat");
            }
        }
        return problems;
    }

    /** Writes each file of {@code parts} back under {@code stateDir}, 0600; {@link #problems} first. */
    public static void write(Path stateDir, Map<String, byte[]> parts) throws IOException {
        for (String file : FILES) {
            byte[] bytes = parts.get(PART + file);
            if (bytes == null) {
                continue;
            }
            Path path = stateDir.resolve(file);
            if (file.startsWith("install/") && !Files.isDirectory(path.getParent())) {
                // as the install journal makes it: its secrets are no one else's to list
                Files.createDirectories(path.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Files.createDirectories(path.getParent());
            Files.deleteIfExists(path);
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(path, bytes, StandardOpenOption.TRUNCATE_EXISTING);
        }
    }
}
