package mesh.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.SecretRef;
import mesh.trust.SecretSeal;

/**
 * NodeSecrets keeps the secret values of a declaration out of the host's records in clear: a record
 * holds each value sealed (AES-256-GCM, the JDK's javax.crypto, {@link SecretSeal}) with this node's
 * own key, {@code <state-dir>/secrets.key} (32 random bytes, 0600, made at the first secret), so the
 * agent can start a component again after it restarts, and every view of a record shows the
 * reference alone (docs/trust.md, "Secrets"). The key never leaves the node.
 */
final class NodeSecrets {

    private final Path keyFile;
    private byte[] key;

    NodeSecrets(Path stateDir) {
        this.keyFile = stateDir.resolve("secrets.key");
    }

    /** {@code d} with each value sealed: what a record holds. */
    Declaration sealed(Declaration d) {
        return map(d, ref -> ref.value() == null ? ref.withoutValue()
                : ref.withSealed(Base64.getEncoder().encodeToString(SecretSeal.seal(key(), ref.value(), aad(ref)))));
    }

    /** {@code d} with each sealed value opened: what the agent runs from. A value that does not open stays absent. */
    Declaration opened(Declaration d) {
        return map(d, ref -> {
            if (ref.sealed() == null) {
                return ref;
            }
            try {
                return ref.withValue(SecretSeal.open(key(), Base64.getDecoder().decode(ref.sealed()), aad(ref)));
            } catch (SecretSeal.Unopened | IllegalArgumentException e) {
                return ref.withoutValue();
            }
        });
    }

    /** {@code d} as every view shows it: references alone, neither value nor sealed value. */
    static Declaration view(Declaration d) {
        return map(d, SecretRef::withoutValue);
    }

    /**
     * {@code d} with each reference that came without its value (a take's edge-first send re-sends what the
     * store acknowledged, which holds none) given the value {@code held} has for the same setting; the
     * components whose value is neither sent nor held, said as problems.
     */
    static Declaration filled(Declaration d, Declaration held, List<String> problems) {
        Map<String, String> known = new TreeMap<>();
        if (held != null) {
            held.components().forEach(c -> c.secrets().values().stream().filter(r -> r.value() != null)
                    .forEach(r -> known.put(c.module() + "/" + r.secret() + "/" + r.version() + "/" + r.hmac(), r.value())));
        }
        return new Declaration(d.node(), d.address(), d.generation(), d.components().stream().map(c -> {
            Map<String, SecretRef> refs = new TreeMap<>();
            c.secrets().forEach((variable, r) -> {
                String v = r.value() != null ? r.value() : known.get(c.module() + "/" + r.secret() + "/" + r.version() + "/" + r.hmac());
                if (v == null) {
                    problems.add("component " + c.name() + ": env " + variable + " " + r.words() + " came without its value,"
                            + " and this agent holds none for it; push from the controller, which sends it");
                }
                refs.put(variable, v == null ? r : r.withValue(v));
            });
            return c.secrets().isEmpty() ? c : c.withSecrets(refs);
        }).toList(), d.registry(), d.edge(), d.push());
    }

    private static Declaration map(Declaration d, UnaryOperator<SecretRef> f) {
        if (d == null || d.components().stream().allMatch(c -> c.secrets().isEmpty())) {
            return d;
        }
        return new Declaration(d.node(), d.address(), d.generation(), d.components().stream().map(c -> {
            if (c.secrets().isEmpty()) {
                return c;
            }
            Map<String, SecretRef> refs = new TreeMap<>();
            c.secrets().forEach((k, r) -> refs.put(k, f.apply(r)));
            return c.withSecrets(refs);
        }).toList(), d.registry(), d.edge(), d.push());
    }

    private static String aad(SecretRef r) {
        return r.secret() + "/" + r.version() + "/" + r.hmac();
    }

    private synchronized byte[] key() {
        if (key != null) {
            return key;
        }
        try {
            if (!Files.exists(keyFile)) {
                Files.createDirectories(keyFile.getParent());
                Path tmp = keyFile.resolveSibling("secrets.key.tmp");
                Files.deleteIfExists(tmp);
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.write(tmp, SecretSeal.newKey());
                Files.move(tmp, keyFile, StandardCopyOption.ATOMIC_MOVE);
            }
            byte[] read = Files.readAllBytes(keyFile);
            if (read.length != SecretSeal.KEY_BYTES) {
                throw new IOException(keyFile + " holds " + read.length + " bytes, not a " + SecretSeal.KEY_BYTES + "-byte key");
            }
            key = read;
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make this node's secrets key " + keyFile, e);
        }
    }
}
