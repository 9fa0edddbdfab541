package mesh.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import mesh.model.SecretRef;
import mesh.plan.SeatCatalogue;
import mesh.plan.SecretValues;
import mesh.trust.SecretKeys;

/**
 * SeatSecrets is what the installer keeps of the mesh's secrets in the seat's {@code install/}
 * folder (0600 files, kept by {@code mesh uninstall}): the files the controller reads before it can
 * read the store (its admin token, the store's password), the secrets key file, and the store's
 * password as {@code mesh-store}'s secret (docs/trust.md, "Secrets": the bootstrap).
 */
final class SeatSecrets {

    /** The secret of module mesh-store that holds the store's password. */
    static final String STORE_SECRET = "store-password";

    private final Path dir;

    SeatSecrets(Path installDir) {
        this.dir = installDir;
    }

    /** {@code install/NAME}, 0600, holding {@code value} on one line (written again when it differs). */
    Path file(String name, String value) {
        Path file = dir.resolve(name);
        try {
            if (!Files.isRegularFile(file) || !Files.readString(file).strip().equals(value)) {
                Path tmp = file.resolveSibling(name + ".tmp");
                Files.deleteIfExists(tmp);
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(tmp, value + "\n");
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot write the install's secret file " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /**
     * The mesh's secrets key file ({@code install/secrets.key}, 0600; {@link SecretKeys}), made at the
     * first install and kept by a rerun and by {@code mesh uninstall} like the CA.
     */
    Path keyFile() {
        Path file = dir.resolve("secrets.key");
        try {
            if (!Files.isRegularFile(file)) {
                SecretKeys.fresh().write(file);
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot write the secrets key file " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /**
     * The secrets the built-in manifests use, for the installer's own push before a controller exists:
     * version 1 of mesh-store's {@value #STORE_SECRET}, hashed with the key file the controller reads
     * later, so its first push plans the same digest ({@link #setStorePassword} sets it there).
     */
    SecretValues bootSecrets(String storePassword) {
        try {
            SecretKeys keys = SecretKeys.read(keyFile());
            return new SecretValues(Map.of(SeatCatalogue.STORE, Map.of(STORE_SECRET, new SecretRef(STORE_SECRET, 1,
                    keys.hmac(SeatCatalogue.STORE, STORE_SECRET, storePassword), storePassword, null))));
        } catch (IOException e) {
            throw new InstallFailure("cannot read the secrets key file: " + e.getMessage(), e);
        }
    }

    /** Sets mesh-store's password as its secret through the controller, unless it holds it already (a rerun). */
    void setStorePassword(SeatApi api, String storePassword) {
        if (!api.hasSecret(SeatCatalogue.STORE, STORE_SECRET)) {
            api.setSecret(SeatCatalogue.STORE, STORE_SECRET, storePassword);
        }
    }
}
