package mesh.controller;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.Conflict;
import mesh.model.InvalidInput;
import mesh.model.Manifest;
import mesh.model.NotFound;
import mesh.model.SecretRef;
import mesh.plan.SecretRules;
import mesh.plan.SecretValues;
import mesh.store.MeshStore;
import mesh.store.SecretRows;
import mesh.trust.SecretKeys;
import mesh.trust.SecretSeal;
import mesh.wire.SecretView;

/**
 * MeshSecrets is {@code mesh secret set|list|remove|rotate-key} and the opening of the secrets a push
 * plans with (docs/trust.md, "Secrets"). Values are sealed with AES-256-GCM ({@link SecretSeal}, the
 * JDK's javax.crypto) under the key file MESH_SECRETS_KEY_FILE names ({@link SecretKeys}), which is
 * not in the store; a value is opened only to plan a push, and goes nowhere but into the declaration
 * of the node that runs a component using it.
 */
@ApplicationScoped
public class MeshSecrets {

    @Inject
    MeshStore store;

    @Inject
    MeshController controller;

    @Inject
    AuditTrail audit;

    public SecretView set(String module, String name, String value) {
        SecretKeys keys = keys();
        return store.inTransaction(c -> {
            List<String> problems = SecretRules.setProblems(module, name, value, store.hasModule(c, module));
            if (!problems.isEmpty()) {
                throw new InvalidInput(problems);
            }
            int version = SecretRows.find(c, module, name, true).map(r -> r.version() + 1).orElse(1);
            SecretRows.Row row = new SecretRows.Row(module, name, version, keys.currentId(),
                    SecretSeal.seal(keys.current(), value, SecretKeys.aad(module, name, version)),
                    keys.hmac(module, name, value), null, audit.who());
            java.time.Instant at = SecretRows.put(c, row);
            audit.record(c, "secret set", "secret " + name + " of module " + module + " set, version " + version);
            return new SecretView(module, name, version, at.toString(), row.setBy());
        });
    }

    public List<SecretView> list(String module) {
        return store.inTransaction(c -> SecretRows.all(c, module).stream()
                .map(r -> new SecretView(r.module(), r.name(), r.version(), r.setAt().toString(), r.setBy())).toList());
    }

    /** Removes a secret no manifest of its module uses; one in use is refused, naming each use. */
    public SecretView remove(String module, String name) {
        return store.inTransaction(c -> {
            SecretRows.Row r = SecretRows.find(c, module, name, true).orElseThrow(() ->
                    new NotFound("module " + module + " has no secret " + name + " ('mesh secret list' shows them)"));
            Manifest m = store.module(c, module).map(MeshStore.StoredModule::manifest).orElse(null);
            List<String> uses = SecretRules.uses(m, name);
            if (!uses.isEmpty()) {
                throw new Conflict("secret " + name + " of module " + module + " is used by " + String.join(", ", uses)
                        + "; take it out of the module's manifest ('mesh catalogue add') and push first; nothing was changed");
            }
            SecretRows.remove(c, module, name);
            audit.record(c, "secret remove", "secret " + name + " of module " + module + " removed (was version " + r.version() + ")");
            return new SecretView(module, name, r.version(), r.setAt().toString(), r.setBy());
        });
    }

    /**
     * Seals every secret again under a new key: the key file first gets the new key in front of the old
     * one, the rows are re-sealed in one transaction, then the old key is dropped from the file. A crash
     * between leaves a file that opens every row. The digest key is kept, so no container is replaced.
     */
    public int rotateKey() {
        Path file = keyFile();
        SecretKeys next = keys().withNewSealKey();
        try {
            next.write(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the secrets key file " + file + ": " + e.getMessage(), e);
        }
        int count = store.inTransaction(c -> {
            List<SecretRows.Row> rows = SecretRows.all(c, null);
            for (SecretRows.Row r : rows) {
                String value = open(next, r);
                SecretRows.reseal(c, r.module(), r.name(), next.currentId(),
                        SecretSeal.seal(next.current(), value, SecretKeys.aad(r.module(), r.name(), r.version())));
            }
            audit.record(c, "secret rotate-key", rows.size() + " secret" + (rows.size() == 1 ? "" : "s")
                    + " sealed again under a new key " + next.currentId());
            return rows.size();
        });
        try {
            next.currentOnly().write(file);
        } catch (IOException e) {
            throw new IllegalStateException("every secret is sealed under the new key, but dropping the old key from "
                    + file + " failed: " + e.getMessage(), e);
        }
        return count;
    }

    /** The current setting of every secret of the store, opened, for a push to plan with. */
    public SecretValues values(Connection c) throws SQLException {
        List<SecretRows.Row> rows = SecretRows.all(c, null);
        if (rows.isEmpty()) {
            return SecretValues.NONE;
        }
        SecretKeys keys = keys();
        Map<String, Map<String, SecretRef>> byModule = new TreeMap<>();
        for (SecretRows.Row r : rows) {
            byModule.computeIfAbsent(r.module(), m -> new TreeMap<>())
                    .put(r.name(), new SecretRef(r.name(), r.version(), r.hmac(), open(keys, r), null));
        }
        return new SecretValues(byModule);
    }

    /** The same in a transaction of its own. */
    public SecretValues values() {
        return store.inTransaction(this::values);
    }

    private static String open(SecretKeys keys, SecretRows.Row r) {
        byte[] key = keys.seal().get(r.keyId());
        if (key == null) {
            throw new IllegalStateException("secret " + r.name() + " of module " + r.module() + " is sealed with key "
                    + r.keyId() + ", which the secrets key file does not hold (a key file of another mesh?)");
        }
        try {
            return SecretSeal.open(key, r.sealed(), SecretKeys.aad(r.module(), r.name(), r.version()));
        } catch (SecretSeal.Unopened e) {
            throw new IllegalStateException("secret " + r.name() + " of module " + r.module() + " does not open: " + e.getMessage());
        }
    }

    private Path keyFile() {
        Path file = controller.settings() == null ? null : controller.settings().secretsKeyFile();
        if (file == null) {
            throw new Conflict("this controller has no secrets key: set MESH_SECRETS_KEY_FILE (mesh install makes one,"
                    + " <state-dir>/install/secrets.key on the seat)");
        }
        return file;
    }

    private SecretKeys keys() {
        Path file = keyFile();
        try {
            return SecretKeys.read(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the secrets key file " + file + ": " + e.getMessage(), e);
        }
    }
}
