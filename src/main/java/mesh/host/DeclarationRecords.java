package mesh.host;

import mesh.host.records.DurableFile;
import java.io.IOException;
import java.io.UncheckedIOException;


import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;


import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;

/**
 * DeclarationRecords keeps every declaration this host accepted, one file per generation under
 * {@code <state-dir>/declarations/}, written durably (fsync of file and folder, atomic rename)
 * before the push is acknowledged (docs/design.md, invariant 6). A crash leaves either the whole record or none.
 */
public final class DeclarationRecords {

    private static final Pattern FILE = Pattern.compile("(\\d{12})\\.json");

    private final Path dir;
    /** Seals each secret value in a record with this node's key, and opens it for the agent. */
    private final NodeSecrets secrets;
    /** The newest generation kept, read from the folder once, then kept up to date by {@link #write}. */
    private long last = -1;

    public DeclarationRecords(Path stateDir) {
        this.dir = stateDir.resolve("declarations");
        this.secrets = new NodeSecrets(stateDir);
    }

    public Path dir() {
        return dir;
    }

    public synchronized DeclarationRecord write(Declaration d, Instant receivedAt) {
        return write(d, receivedAt, null);
    }

    /**
     * Records a declaration read from {@code file} by {@code mesh host apply} (null: a push); each secret
     * value in it is sealed with this node's key, never written in clear ({@link NodeSecrets}).
     */
    public synchronized DeclarationRecord write(Declaration d, Instant receivedAt, String file) {
        DeclarationRecord record = new DeclarationRecord(d.generation(), receivedAt.toString(), d, file);
        DeclarationRecord kept = new DeclarationRecord(d.generation(), receivedAt.toString(), secrets.sealed(d), file);
        try {
            DurableFile.write(file(d.generation()), DeclarationJson.writePretty(kept).getBytes(StandardCharsets.UTF_8));
            last = Math.max(lastGeneration(), d.generation());
            return record;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record generation " + d.generation() + " in " + dir, e);
        }
    }

    /** The generations kept, oldest first. */
    public List<Long> generations() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> FILE.matcher(p.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> Long.parseLong(m.group(1)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    public synchronized long lastGeneration() {
        if (last < 0) {
            List<Long> all = generations();
            last = all.isEmpty() ? 0 : all.get(all.size() - 1);
        }
        return last;
    }

    /** The record of {@code generation} as every view shows it: each secret as its reference alone. */
    public Optional<DeclarationRecord> read(long generation) {
        return stored(generation).map(r -> new DeclarationRecord(r.generation(), r.receivedAt(),
                NodeSecrets.view(r.declaration()), r.file()));
    }

    /** The record of {@code generation} with its secret values opened, for the agent to run it. */
    public Optional<DeclarationRecord> readOpened(long generation) {
        return stored(generation).map(r -> new DeclarationRecord(r.generation(), r.receivedAt(),
                secrets.opened(r.declaration()), r.file()));
    }

    private Optional<DeclarationRecord> stored(long generation) {
        Path file = file(generation);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(DeclarationJson.MAPPER.readValue(Files.readString(file), DeclarationRecord.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the record of generation " + generation + " in " + file, e);
        }
    }

    /** The newest record, its secret values opened (the agent resumes from it). */
    public Optional<DeclarationRecord> latest() {
        long last = lastGeneration();
        return last == 0 ? Optional.empty() : readOpened(last);
    }

    private Path file(long generation) {
        return dir.resolve(String.format("%012d.json", generation));
    }
}
