package mesh.cli;

import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mesh.docker.DockerEngine;
import mesh.host.ApplyReport;
import mesh.host.ApplyRun;
import mesh.host.DeclarationRecords;
import mesh.host.HostSettings;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.InvalidInput;
import mesh.plan.HostDiff;
import mesh.plan.HostPlan;
import mesh.wire.PlanView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "apply",
        mixinStandardHelpOptions = true,
        description = {"Apply a declaration file to the local engine once, and exit.",
            "Records it like a push would (it must be newer than the last record, or the same one).",
            "Uses MESH_HOST_ENGINE and MESH_HOST_STATE_DIR like `mesh host serve`."})
public class HostApplyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "the declaration, as JSON (see docs/declaration.md)")
    Path file;

    @Option(names = "--config", paramLabel = "FILE", description = "a file of KEY=VALUE lines (the variables below); the environment wins over it")
    Path config;

    @Option(names = "--dry-run", description = "show what would change; change nothing")
    boolean dryRun;

    @Mixin
    OutputOption format;

    @Inject
    Output output;

    @Override
    public Integer call() {
        HostSettings settings = HostSettings.forLocal(ConfigFile.withEnvironment(config, System.getenv()));
        Declaration d = read(file);
        if (settings.node() != null && !settings.node().equals(d.node())) {
            throw new VerbFailure(file + " is for node '" + d.node() + "', this host is '" + settings.node() + "'");
        }
        DeclarationRecords records = new DeclarationRecords(settings.stateDir());
        try (DockerEngine engine = new DockerEngine(settings.engine())) {
            HostPlan plan = HostDiff.between(d, engine.list(d.node()));
            if (dryRun) {
                print(PlanView.of(plan), null);
                return ExitCodes.OK;
            }
            record(records, d);
            ExecutorService pool = Executors.newFixedThreadPool(settings.parallelism());
            try {
                ApplyReport report = new ApplyRun(engine, pool, line -> {
                    if (!format.json()) {
                        output.line(spec, line);
                    }
                }).run(d, plan);
                print(PlanView.of(plan), report);
                return report.ok() ? ExitCodes.OK : ExitCodes.FAILED;
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private void print(PlanView plan, ApplyReport report) {
        if (format.json()) {
            output.json(spec, new Result(plan, report == null ? null : report.lines(),
                    report == null ? null : report.failures()));
            return;
        }
        if (report == null) {
            output.line(spec, plan.summary());
            PlanLines.of(plan).forEach(line -> output.line(spec, line));
        } else if (report.lines().isEmpty()) {
            output.line(spec, plan.summary());
        }
        if (report != null) {
            report.failures().forEach((c, why) -> output.error(spec, "failed " + c + ": " + why));
        }
    }

    /** Result is {@code -o json}: the plan, the change lines, the failures. */
    public record Result(PlanView plan, java.util.List<String> changes, java.util.Map<String, String> failures) {
    }

    private static void record(DeclarationRecords records, Declaration d) {
        long last = records.lastGeneration();
        if (d.generation() < last) {
            throw new VerbFailure("generation " + d.generation() + " is older than the last recorded, " + last);
        }
        if (d.generation() == last) {
            Declaration kept = records.read(last).orElseThrow().declaration();
            if (!kept.equals(d)) {
                throw new VerbFailure("generation " + last + " was already recorded with other content; "
                        + "give this declaration a newer generation");
            }
            return;
        }
        records.write(d, Instant.now());
    }

    static Declaration read(Path file) {
        try {
            return DeclarationJson.parse(Files.readString(file));
        } catch (IOException e) {
            throw new VerbFailure("cannot read " + file + ": " + e.getMessage());
        } catch (InvalidInput e) {
            throw new VerbFailure(file + " is not a valid declaration:\n  " + String.join("\n  ", e.problems()));
        }
    }
}
