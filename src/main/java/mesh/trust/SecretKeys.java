package mesh.trust;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SecretKeys is the mesh's secrets key file on the seat ({@code <state-dir>/install/secrets.key},
 * 0600, made by {@code mesh install}, kept by {@code mesh uninstall} like the CA; the controller reads
 * it from {@code MESH_SECRETS_KEY_FILE}): never in the store. It holds
 * <ul>
 *   <li>{@code seal ID HEX}: the AES-256-GCM keys secrets are sealed with in the store, the first the
 *       current one; a row names the key it was sealed with by its ID. A rotation writes the new key
 *       first with the old after it, re-seals every row, then drops the old one, so a crash part-way
 *       leaves a file that still opens every row;</li>
 *   <li>{@code digest HEX}: the HMAC key of the spec digest's secret hashes. A rotation keeps it, so
 *       re-sealing replaces no container.</li>
 * </ul>
 */
public record SecretKeys(Map<String, byte[]> seal, byte[] digest) {

    public static SecretKeys fresh() {
        Map<String, byte[]> seal = new LinkedHashMap<>();
        seal.put(newId(), SecretSeal.newKey());
        return new SecretKeys(seal, SecretSeal.newKey());
    }

    /** The key new values are sealed with: the first. */
    public String currentId() {
        return seal.keySet().iterator().next();
    }

    public byte[] current() {
        return seal.get(currentId());
    }

    /** These keys with a new current seal key in front of the others. */
    public SecretKeys withNewSealKey() {
        Map<String, byte[]> next = new LinkedHashMap<>();
        next.put(newId(), SecretSeal.newKey());
        next.putAll(seal);
        return new SecretKeys(next, digest);
    }

    /** These keys with the current seal key alone. */
    public SecretKeys currentOnly() {
        return new SecretKeys(Map.of(currentId(), current()), digest);
    }

    private static String newId() {
        return HexFormat.of().formatHex(SecretSeal.newKey(), 0, 4);
    }

    /** Reads {@code file}; an {@link IOException} naming what is wrong with it. */
    public static SecretKeys read(Path file) throws IOException {
        Map<String, byte[]> seal = new LinkedHashMap<>();
        byte[] digest = null;
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            String[] w = line.strip().split("\\s+");
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                if (w.length == 3 && w[0].equals("seal") && w[2].length() == 64) {
                    seal.put(w[1], HexFormat.of().parseHex(w[2]));
                } else if (w.length == 2 && w[0].equals("digest") && w[1].length() == 64) {
                    digest = HexFormat.of().parseHex(w[1]);
                } else {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " line " + n + " is not 'seal ID HEX' nor 'digest HEX' (64 hex digits)");
            }
        }
        if (seal.isEmpty() || digest == null) {
            throw new IOException(file + " must hold a 'seal ID HEX' line and a 'digest HEX' line");
        }
        return new SecretKeys(seal, digest);
    }

    /** Writes these keys to {@code file}, 0600, atomically (a temporary file renamed over it). */
    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# the mesh's secrets keys (docs/trust.md, \"Secrets\"): keep this file on the seat alone, 0600");
        seal.forEach((id, key) -> lines.add("seal " + id + " " + HexFormat.of().formatHex(key)));
        lines.add("digest " + HexFormat.of().formatHex(digest));
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The keyed hash a declaration carries for {@code value} of secret {@code name} of {@code module}. */
    public String hmac(String module, String name, String value) {
        return SecretSeal.hmac(digest, module + "\0" + name + "\0" + value);
    }

    /** What a sealed value of this setting is bound to. */
    public static String aad(String module, String name, int version) {
        return module + "/" + name + "/" + version;
    }
}
