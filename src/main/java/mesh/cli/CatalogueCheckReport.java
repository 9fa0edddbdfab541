package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import mesh.model.CatalogueCheck;
import mesh.model.Manifests;

/**
 * CatalogueCheckReport is {@code mesh catalogue check}: it reads the files {@code catalogue add}
 * would send and runs the controller's own check on them ({@link CatalogueCheck}), here, without a
 * controller. Each file is named by the path as given, so an editor or a CI log can jump to the line.
 */
final class CatalogueCheckReport {

    private CatalogueCheckReport() {
    }

    /** Report is {@code -o json}: every module that reads well, every problem, and whether all is good. */
    public record Report(boolean ok, int files, List<Module> modules, List<String> problems) {
    }

    /** Module is one manifest that reads well: its module, its file, its components and routes. */
    public record Module(String module, String file, List<String> components, List<String> routes) {
    }

    /** Checks the file, or every *.yaml and *.yml in the folder, as {@code catalogue add} would send them. */
    static Report of(Path path) {
        List<CatalogueCheck.File> files = new ArrayList<>();
        for (Path p : CatalogueCommand.manifestPaths(path)) {
            try {
                files.add(new CatalogueCheck.File(p.toString(), Files.readString(p)));
            } catch (IOException e) {
                throw new VerbFailure(FileProblem.cannotRead(p, e));
            }
        }
        CatalogueCheck.Result result = CatalogueCheck.of(files);
        List<Module> modules = result.sources().stream().map(CatalogueCheckReport::module).toList();
        return new Report(result.ok(), files.size(), modules, result.problems());
    }

    private static Module module(Manifests.Source s) {
        return new Module(s.manifest().module(), s.file(), List.copyOf(s.manifest().components().keySet()),
                List.copyOf(new TreeSet<>(s.manifest().routes().keySet())));
    }

    /** One line for a module that reads well. */
    static String line(Module m) {
        return m.file() + ": module " + m.module() + " is good: " + count(m.components().size(), "component") + " ("
                + String.join(", ", m.components()) + ")" + (m.routes().isEmpty() ? ", no route"
                : ", " + count(m.routes().size(), "route") + " (" + String.join(", ", m.routes()) + ")");
    }

    /** The last line of a refusal: how many problems, and what they mean. */
    static String summary(Report r) {
        long bad = r.problems().stream().map(p -> p.split(":", 2)[0]).distinct().count();
        return count(r.problems().size(), "problem") + " in " + bad + " of " + count(r.files(), "file")
                + "; mesh catalogue add would refuse " + (r.files() == 1 ? "it" : "them all") + " and store nothing";
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
