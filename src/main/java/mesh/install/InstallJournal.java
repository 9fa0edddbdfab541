package mesh.install;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import mesh.plan.InstallStep;

/**
 * InstallJournal is what {@code mesh install} keeps in its state dir between runs: the steps done
 * ({@code install/steps}, one word a line, each line synced before the next step starts) and the
 * secrets it generated ({@code install/secrets.env}, mode 0600), so a rerun after a crash resumes
 * with the same tokens and passwords instead of inventing new ones the running parts do not know.
 */
public final class InstallJournal {

    private final Path dir;

    public InstallJournal(Path stateDir) {
        this.dir = stateDir.resolve("install");
    }

    public Path dir() {
        return dir;
    }

    /** The file of the generated secrets, which {@link Uninstall} keeps with the data unless told to delete it. */
    public Path secretsFile() {
        return dir.resolve("secrets.env");
    }

    public Set<InstallStep> done() {
        Set<InstallStep> done = EnumSet.noneOf(InstallStep.class);
        Path steps = dir.resolve("steps");
        if (Files.isRegularFile(steps)) {
            try {
                for (String line : Files.readAllLines(steps)) {
                    InstallStep s = InstallStep.ofWord(line.strip());
                    if (s != null) {
                        done.add(s);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + steps, e);
            }
        }
        return done;
    }

    public void markDone(InstallStep step) {
        append(dir.resolve("steps"), step.word() + "\n");
    }

    /** The secret under {@code key}, made by {@code make} and kept on first use. */
    public String secret(String key, java.util.function.Supplier<String> make) {
        Map<String, String> all = secrets();
        String v = all.get(key);
        if (v == null) {
            v = make.get();
            append(dir.resolve("secrets.env"), key + "=" + v + "\n");
        }
        return v;
    }

    /** Keeps {@code value} under {@code key}, replacing what was kept (the last line wins). */
    public void put(String key, String value) {
        append(dir.resolve("secrets.env"), key + "=" + value + "\n");
    }

    private Map<String, String> secrets() {
        Path f = dir.resolve("secrets.env");
        Map<String, String> all = new LinkedHashMap<>();
        if (Files.isRegularFile(f)) {
            try {
                for (String line : Files.readAllLines(f)) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        all.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f, e);
            }
        }
        return all;
    }

    private void append(Path file, String line) {
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            if (!Files.exists(file)) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** A fresh random token of 48 hex characters (the bootstrap operator token, the store's password). */
    public static String newToken() {
        return mesh.trust.Entropy.hex(24);
    }
}
