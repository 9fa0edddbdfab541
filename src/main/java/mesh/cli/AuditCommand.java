package mesh.cli;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.wire.AuditEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Every write to the mesh: when, by which token, the verb and what changed.",
            "Each write is recorded by the controller with the change itself, under the name of its operator token. A push's ID is the one a host's 'mesh host "
                    + "history' names it by (push 42); 'mesh rollback --list' shows the pushes that can be rolled back to. "
                    + "Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh audit --since 1h",
            "  mesh audit -o json"})
public class AuditCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Option(names = "--since", paramLabel = "DURATION|TIME",
            description = "only from then on: 30m, 12h, 7d back from now, an instant (2026-11-30T19:00:00Z) or a day (2026-11-30)")
    String since;

    @Override
    public Integer call() {
        Instant from;
        try {
            from = since == null ? null : Times.since(since, Instant.now());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        List<AuditEntry> entries = ControllerClient.fromEnvironment().api().audit(from);
        if (format.json()) {
            output.json(spec, entries);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("ID", "TIME", "TOKEN", "VERB", "CHANGE"), entries.stream()
                .map(e -> List.of(java.util.Objects.toString(e.id(), "-"), e.at(), e.token(), e.verb(), e.change()))
                .toList());
        return ExitCodes.OK;
    }
}
