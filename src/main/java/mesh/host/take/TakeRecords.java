package mesh.host.take;

import mesh.host.records.DurableFile;
import java.io.IOException;
import java.io.UncheckedIOException;


import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;


import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import mesh.model.DeclarationJson;

/**
 * TakeRecords keeps each module's {@link TakeState} in {@code <state-dir>/take/<module>.json}, written the
 * way declarations are (temporary file, fsync, atomic rename, fsync of the folder): a fence is on disk before
 * the agent stops anything, so an agent killed at any point comes back still fenced. Changes go through
 * {@link #update}, one at a time per agent process.
 */
public final class TakeRecords {

    private final Path dir;

    public TakeRecords(Path stateDir) {
        this.dir = stateDir.resolve("take");
    }

    /** The module's state (none recorded: the state of a module no take touched). */
    public synchronized TakeState read(String module) {
        Path file = file(module);
        if (!Files.exists(file)) {
            return TakeState.none(module);
        }
        try {
            return DeclarationJson.MAPPER.readValue(Files.readString(file), TakeState.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the take record of module " + module + " in " + file, e);
        }
    }

    /** Applies a rule to the module's state and records the result durably (nothing written when it is unchanged). */
    public synchronized TakeState update(String module, UnaryOperator<TakeState> rule) {
        TakeState before = read(module);
        TakeState after = rule.apply(before);
        if (!after.equals(before)) {
            write(after);
        }
        return after;
    }

    /** Every module with a record, sorted. */
    public synchronized List<TakeState> all() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<TakeState> all = new ArrayList<>();
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".json") && !name.startsWith(".")) {
                    all.add(read(name.substring(0, name.length() - ".json".length())));
                }
            }
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** The modules fenced on this node now. */
    public Set<String> fenced() {
        Set<String> fenced = new TreeSet<>();
        for (TakeState s : all()) {
            if (s.fenced()) {
                fenced.add(s.module());
            }
        }
        return fenced;
    }

    private void write(TakeState s) {
        try {
            DurableFile.write(file(s.module()), DeclarationJson.writePretty(s).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the take state of module " + s.module() + " in " + dir, e);
        }
    }

    private Path file(String module) {
        return dir.resolve(TakeRules.name("module", module) + ".json");
    }
}
