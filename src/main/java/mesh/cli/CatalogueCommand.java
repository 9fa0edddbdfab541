package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.wire.CatalogueChange;
import mesh.wire.ManifestFile;
import mesh.wire.ModuleDetail;
import mesh.wire.ModuleView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "catalogue",
        mixinStandardHelpOptions = true,
        description = {"The module manifests the mesh knows (YAML; see docs/manifest.md).", "Uses MESH_CONTROLLER and MESH_TOKEN."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh catalogue add examples/",
            "  mesh catalogue list"})
public class CatalogueCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Add or update modules from a manifest file, or every *.yaml / *.yml in a folder.",
                "All are checked first: one bad manifest and none is stored."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh catalogue add searxng.yaml",
                "  mesh catalogue add manifests/",
                "      every *.yaml and *.yml in the folder, all checked before any is stored"})
    int add(@Parameters(paramLabel = "FILE|DIR", description = "a manifest file, or a folder of them") Path path) {
        List<ManifestFile> files = read(path);
        long bytes = mesh.model.DeclarationJson.write(files).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > mesh.wire.RequestLimits.MAX_BODY_BYTES) {
            throw new VerbFailure((files.size() == 1 ? "the manifest " + path + " is too large: "
                    : "the manifests in " + path + " are too large together: ") + mesh.wire.RequestLimits.megabytes(bytes)
                    + " to send, and the controller takes at most " + mesh.wire.RequestLimits.megabytes(
                            mesh.wire.RequestLimits.MAX_BODY_BYTES) + " in one request; nothing was sent");
        }
        CatalogueChange change = ControllerClient.fromEnvironment().api().addCatalogue(files);
        if (format.json()) {
            output.json(spec, change);
        } else {
            change.added().forEach(m -> output.line(spec, "added " + m));
            change.updated().forEach(m -> output.line(spec, "updated " + m));
            change.unchanged().forEach(m -> output.line(spec, "unchanged " + m));
        }
        return ExitCodes.OK;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = {"List the modules, where each is assigned and runs."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh catalogue list",
                "  mesh catalogue list -o json"})
    int list() {
        List<ModuleView> modules = ControllerClient.fromEnvironment().api().catalogue();
        if (format.json()) {
            output.json(spec, modules);
            return ExitCodes.OK;
        }
        output.table(spec, List.of("MODULE", "COMPONENTS", "ROUTES", "ASSIGNED", "RUNS ON"),
                modules.stream().map(m -> java.util.Arrays.asList(m.module(), String.join(",", m.components()),
                        m.routes().isEmpty() ? null : String.join(",", m.routes()), m.assigned(), m.taken())).toList());
        return ExitCodes.OK;
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"Show one module as the controller stored it.", "Its manifest, the file it came from, and where it is assigned and runs."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh catalogue show searxng"})
    int show(@Parameters(paramLabel = "MODULE", description = "the module, as 'mesh catalogue list' names it") String module) {
        ModuleDetail m = ControllerClient.fromEnvironment().api().module(module);
        if (format.json()) {
            output.json(spec, m);
            return ExitCodes.OK;
        }
        output.line(spec, "module:   " + m.module());
        output.line(spec, "source:   " + m.source() + " (stored " + Times.human(m.addedAt(), java.time.Instant.now()) + ")");
        output.line(spec, "assigned: " + (m.assigned() == null ? "-" : m.assigned()));
        output.line(spec, "runs on:  " + (m.taken() == null ? "-" : m.taken()));
        output.line(spec, "manifest (as stored):");
        output.line(spec, mesh.model.DeclarationJson.writePretty(m.manifest()));
        return ExitCodes.OK;
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Remove a module from the catalogue. Refused while it is assigned or runs anywhere."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh unassign ace searxng && mesh push && mesh catalogue remove searxng"})
    int remove(@Parameters(paramLabel = "MODULE", description = "the module, as 'mesh catalogue list' names it") String module) {
        ControllerClient.fromEnvironment().api().removeModule(module);
        if (format.json()) {
            output.json(spec, java.util.Map.of("removed", module));
        } else {
            output.line(spec, "removed module " + module);
        }
        return ExitCodes.OK;
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check manifest files offline, as catalogue add would, and report every problem at once.",
                "Needs no controller, no network and no token: it runs the controller's own check on the file, or on every *.yaml and *.yml in the folder, and the checks across the files of one add (one module in two files, one component name or one route under one domain in two modules). Each problem is one line: the file, its line and column, the field and what is wrong with it. Exit 0 when all are good (one line per module), 1 with the problems."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh catalogue check gitea.yaml",
                "  mesh catalogue check manifests/",
                "      every manifest of the folder, and what they cannot hold together; for CI before catalogue add",
                "  mesh catalogue check manifests/ -o json"})
    int check(@Parameters(paramLabel = "FILE|DIR", description = "a manifest, or a folder of them (*.yaml, *.yml)") Path path) {
        CatalogueCheckReport.Report report = CatalogueCheckReport.of(path);
        if (format.json()) {
            output.json(spec, report);
        } else if (report.ok()) {
            report.modules().forEach(m -> output.line(spec, CatalogueCheckReport.line(m)));
        } else {
            report.problems().forEach(p -> output.error(spec, p));
            output.error(spec, "mesh: " + CatalogueCheckReport.summary(report));
        }
        return report.ok() ? ExitCodes.OK : ExitCodes.FAILED;
    }

    static List<ManifestFile> read(Path path) {
        List<ManifestFile> files = new ArrayList<>();
        for (Path p : manifestPaths(path)) {
            try {
                files.add(new ManifestFile(p.getFileName().toString(), Files.readString(p)));
            } catch (IOException e) {
                throw new VerbFailure(FileProblem.cannotRead(p, e));
            }
        }
        return files;
    }

    /** The file, or every *.yaml and *.yml in the folder, sorted; a folder without one is refused. */
    static List<Path> manifestPaths(Path path) {
        List<Path> paths = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> all = Files.list(path)) {
                all.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().forEach(paths::add);
            } catch (IOException e) {
                throw new VerbFailure("cannot list " + path + ": " + e.getMessage());
            }
            if (paths.isEmpty()) {
                throw new VerbFailure(path + " holds no *.yaml or *.yml manifest");
            }
        } else {
            paths.add(path);
        }
        return paths;
    }
}
