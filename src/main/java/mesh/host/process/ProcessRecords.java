package mesh.host.process;

import mesh.host.records.DurableFile;
import java.io.IOException;
import java.io.UncheckedIOException;


import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;


import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import mesh.model.DeclarationJson;

/**
 * ProcessRecords keeps one {@link ProcessRecord} per component under {@code <state-dir>/processes/}, written
 * durably (write a temporary file, fsync it, rename it over the old one, fsync the folder): a crash leaves
 * the old record or the new one, never half of one. Beside each record, a folder of the component's
 * runtime files: the shim's exit file and the hosts file it binds.
 */
public final class ProcessRecords {

    private final Path dir;

    public ProcessRecords(Path stateDir) {
        this.dir = stateDir.resolve("processes");
    }

    public Path dir() {
        return dir;
    }

    public Optional<ProcessRecord> read(String component) {
        Path file = file(component);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(DeclarationJson.MAPPER.readValue(Files.readString(file), ProcessRecord.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the process record of " + component + " in " + file, e);
        }
    }

    public void write(ProcessRecord record) {
        Path file = file(record.component());
        try {
            DurableFile.write(file, DeclarationJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(record)
                    .getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the process record of " + record.component() + " in " + file, e);
        }
    }

    public void delete(String component) {
        try {
            Files.deleteIfExists(file(component));
            Path runtime = runtimeDir(component);
            if (Files.isDirectory(runtime)) {
                try (Stream<Path> files = Files.list(runtime)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(runtime);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the process record of " + component + " in " + dir, e);
        }
    }

    /** The components recorded, sorted by name. */
    public List<String> components() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json") && !n.startsWith("."))
                    .map(n -> n.substring(0, n.length() - ".json".length()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** The folder of the component's runtime files (exit file, hosts file). */
    public Path runtimeDir(String component) {
        return dir.resolve(component);
    }

    public Path exitFile(String component) {
        return runtimeDir(component).resolve("exit");
    }

    public Path hostsFile(String component) {
        return runtimeDir(component).resolve("hosts");
    }

    private Path file(String component) {
        return dir.resolve(component + ".json");
    }

    /** The exit file's status and time when it is this run's (its pid), else unknown at {@code now}. */
    record ExitFile(ExitStatus status, Instant at) {
    }

    /** What the component's exit file says of this run of it ({@link ExitFile}). */
    ExitFile exit(ProcessRecord record, Instant now) {
        Path file = exitFile(record.component());
        try {
            if (Files.exists(file)) {
                String[] f = Files.readString(file).trim().split(" ");
                Instant at = Files.getLastModifiedTime(file).toInstant();
                if (f.length == 2 && f[0].equals(Long.toString(record.pid()))) {
                    return new ExitFile(ExitStatus.fromWait(Integer.parseInt(f[1]), at.toString()), at);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // an unreadable exit file says nothing: the exit is unknown
        }
        return new ExitFile(ExitStatus.unknown(now.toString()), now);
    }
}
