package mesh.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.host.DeclarationRecord;
import mesh.host.DeclarationRecords;
import mesh.plan.DeclarationChanges;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "history",
        mixinStandardHelpOptions = true,
        description = {"List the declarations this host accepted, or show what changed between two.",
            "  mesh host history            every generation kept, newest last, and where it came from:",
            "                               pushed by alice (push 42), or from file F on this node",
            "  mesh host history A B        components added, removed and changed from A to B, each changed",
            "                               field with its value before and after (old -> new)",
            "  mesh host history --last     the same for the last two generations",
            "Reads the installed agent's settings, DIR/host.env (--config-dir DIR as given to 'mesh install', "
                    + "default /etc/mesh) when it exists; MESH_HOST_* in the environment wins over it; with neither, the state "
                    + "dir is /var/lib/mesh. Needs no running agent."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh host history",
            "  mesh host history 41 42",
            "  mesh host history --last"})
public class HostHistoryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..2", paramLabel = "GENERATION", description = "two generations to compare (mesh host history lists them)")
    List<Long> generations = new ArrayList<>();

    @Option(names = "--last", description = "compare the last two generations")
    boolean last;

    @Mixin
    LocalSettingsOptions settings;

    @Mixin
    OutputOption format;

    final Output output = new Output();

    @Override
    public Integer call() {
        LocalSettingsOptions.Settings local = settings.read(System.getenv());
        DeclarationRecords records = new DeclarationRecords(local.host().stateDir());
        String from = " (" + local.stateDirFrom() + ")";
        List<Long> kept = records.generations();
        if (last) {
            if (kept.size() < 2) {
                throw new VerbFailure("fewer than two declarations are kept in " + records.dir() + from);
            }
            generations = kept.subList(kept.size() - 2, kept.size());
        }
        if (generations.size() == 1) {
            throw new VerbFailure("give two generations to compare, or none to list them");
        }
        if (generations.isEmpty()) {
            list(records, kept, from);
        } else {
            compare(read(records, generations.get(0), from), read(records, generations.get(1), from));
        }
        return ExitCodes.OK;
    }

    private void list(DeclarationRecords records, List<Long> kept, String from) {
        List<DeclarationRecord> all = kept.stream().map(g -> records.read(g).orElseThrow()).toList();
        if (format.json()) {
            output.json(spec, all.stream().map(r -> new Entry(r.generation(), r.receivedAt(),
                    r.declaration().components().size(), r.declaration().push(), r.file())).toList());
            return;
        }
        if (all.isEmpty()) {
            output.line(spec, "no declarations kept in " + records.dir() + from);
            return;
        }
        java.time.Instant now = java.time.Instant.now();
        output.table(spec, List.of("GENERATION", "RECEIVED", "COMPONENTS", "FROM"), all.stream()
                .map(r -> List.of(Long.toString(r.generation()), Times.when(r.receivedAt(), now),
                        Integer.toString(r.declaration().components().size()), DeclarationRecord.origin(r)))
                .toList());
    }

    private void compare(DeclarationRecord a, DeclarationRecord b) {
        DeclarationChanges changes = DeclarationChanges.between(a.declaration(), b.declaration());
        if (format.json()) {
            output.json(spec, changes);
            return;
        }
        if (changes.nothingChanged()) {
            output.line(spec, "generations " + a.generation() + " and " + b.generation() + " declare the same components");
            return;
        }
        java.time.Instant now = java.time.Instant.now();
        output.line(spec, "from generation " + a.generation() + " (" + Times.when(a.receivedAt(), now) + ") to "
                + b.generation() + " (" + Times.when(b.receivedAt(), now) + "):");
        changes.added().forEach(n -> output.line(spec, "  added    " + n));
        changes.removed().forEach(n -> output.line(spec, "  removed  " + n));
        changes.values().forEach((n, fields) -> {
            output.line(spec, "  changed  " + n + ": " + String.join(", ", changes.changed().get(n)));
            fields.forEach(f -> output.line(spec, "      " + f.field() + ": " + value(f.before()) + " -> " + value(f.after())));
        });
    }

    /** A value as people read it: a text as it is, anything else as compact JSON, an absent one as "(none)". */
    static String value(com.fasterxml.jackson.databind.JsonNode v) {
        return v == null ? "(none)" : v.isTextual() ? v.asText() : v.toString();
    }

    private static DeclarationRecord read(DeclarationRecords records, long generation, String from) {
        return records.read(generation).orElseThrow(() ->
                new VerbFailure("no declaration of generation " + generation + " is kept in " + records.dir() + from));
    }

    /**
     * Entry is one line of the listing in {@code -o json}: as the agent's {@code GET /v1/declarations}
     * ({@link mesh.wire.Kept}), the push that sent it or the file it was applied from.
     */
    public record Entry(long generation, String receivedAt, int components, mesh.model.PushOrigin push, String file) {
    }
}
