package mesh.model;

import java.util.ArrayList;
import java.util.List;

/**
 * CatalogueCheck is what {@code mesh catalogue add} checks before anything is stored, in one place
 * for both that check and {@code mesh catalogue check}, which runs it offline: every file's manifest
 * ({@link ManifestYaml}, each problem as {@code FILE:LINE:COLUMN: field path: what is wrong}) and
 * what the files of one add cannot hold together ({@link Manifests#clashes}). Nothing here needs a
 * controller, a store or the network, so what passes here passes the controller's check.
 */
public final class CatalogueCheck {

    private CatalogueCheck() {
    }

    /** File is one manifest as given: its name, for the problems, and its text. */
    public record File(String name, String yaml) {
    }

    /**
     * Result is the manifests read, in the order given, and every problem found; the manifests of a
     * result with problems are the files that read well, for a report, never for storing.
     */
    public record Result(List<Manifests.Source> sources, List<String> problems) {

        public Result {
            sources = List.copyOf(sources);
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /** Checks every file and then the files together; no file stops the check of the others. */
    public static Result of(List<File> files) {
        if (files.isEmpty()) {
            return new Result(List.of(), List.of("no manifest given"));
        }
        List<String> problems = new ArrayList<>();
        List<Manifests.Source> sources = new ArrayList<>();
        for (File f : files) {
            try {
                sources.add(new Manifests.Source(f.name(), ManifestYaml.parse(f.name(), f.yaml()), f.yaml()));
            } catch (InvalidInput e) {
                problems.addAll(e.problems());
            }
        }
        problems.addAll(Manifests.clashes(sources));
        return new Result(sources, problems);
    }
}
