package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import mesh.host.ApplyReport;
import mesh.host.HostFailure;
import mesh.host.HostIntake;
import mesh.host.HostPlanView;
import mesh.host.HostSettings;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.model.InvalidInput;
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
            "Takes it like a push: it must be newer than the newest record, and is recorded before it is applied; "
                    + "the newest record itself may be given again, to apply it again.",
            "Uses MESH_HOST_ENGINE and MESH_HOST_STATE_DIR like `mesh host serve`."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh host apply declaration.json"})
public class HostApplyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "the declaration, as JSON (see docs/declaration.md)")
    Path file;

    @Mixin
    LocalSettingsOptions settings;

    @Option(names = "--dry-run", description = "show what would change; record nothing, change nothing")
    boolean dryRun;

    @Mixin
    OutputOption format;

    final Output output = new Output();

    @Override
    public Integer call() {
        HostSettings host = settings.read(System.getenv()).host();
        Declaration d = read(file);
        try (HostIntake intake = HostIntake.local(host)) {
            if (dryRun) {
                print(HostPlanView.of(intake.preview(d)), null);
                return ExitCodes.OK;
            }
            HostIntake.Once once = intake.applyOnce(d, file.toAbsolutePath().normalize().toString(), line -> {
                if (!format.json()) {
                    output.line(spec, line);
                }
            });
            print(HostPlanView.of(once.plan()), once.report());
            return once.report().ok() ? ExitCodes.OK : ExitCodes.FAILED;
        } catch (HostFailure e) {
            throw new VerbFailure(e.getMessage(), e);
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
    public record Result(PlanView plan, List<String> changes, Map<String, String> failures) {
    }

    static Declaration read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new VerbFailure(FileProblem.cannotRead(file, e));
        }
        try {
            return DeclarationJson.parse(text);
        } catch (InvalidInput e) {
            String module = mesh.model.ManifestYaml.moduleOf(text);
            if (module != null) {
                throw new VerbFailure(notADeclaration(file, module));
            }
            throw new VerbFailure(file + " is not a valid declaration:\n  " + String.join("\n  ", e.problems()));
        }
    }

    /** A module manifest given where a declaration belongs: what each is, and the verbs that take the manifest. */
    static String notADeclaration(Path file, String module) {
        return file + " is a module manifest (module " + module + "), not a declaration: mesh host apply takes the JSON"
                + " a controller pushes to one node (docs/declaration.md). Check the manifest with 'mesh catalogue check "
                + file + "'; run it with 'mesh catalogue add " + file + "', 'mesh assign NODE " + module + "' and 'mesh push'.";
    }
}
