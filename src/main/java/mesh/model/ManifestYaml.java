package mesh.model;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.Node;

/**
 * ManifestYaml reads one module manifest and refuses it with every problem of the file at once,
 * each as {@code FILE:LINE:COLUMN: field path: what is wrong}. It reads the YAML with SnakeYAML
 * (which jackson-dataformat-yaml brings) into a node tree that knows where each value stands, and
 * {@link ManifestReader} checks that tree field by field. A file holds exactly one YAML document
 * and no aliases ({@code *name}): an alias hides a value's origin from the reader of the file and,
 * nested, makes a small file expand without bound.
 */
public final class ManifestYaml {

    private ManifestYaml() {
    }

    /** Parses one manifest; {@code file} is only used to name it in errors. */
    public static Manifest parse(String file, String text) {
        String yaml = text == null ? "" : text;
        List<String> problems = new ArrayList<>();
        Node root;
        try {
            problems.addAll(structure(file, yaml));
            root = problems.isEmpty() ? yaml().compose(new StringReader(yaml)) : null;
        } catch (MarkedYAMLException e) {
            throw new InvalidInput(List.of(notYaml(file, e)));
        } catch (YAMLException e) {
            throw new InvalidInput(List.of(file + ": not YAML: " + e.getMessage().lines().findFirst().orElse("")));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        if (root == null) {
            throw new InvalidInput(List.of(file + ":1:1: a manifest is a mapping with 'module' and 'components', got an empty file"));
        }
        ManifestReader reader = new ManifestReader(file);
        Manifest manifest = reader.read(root);
        if (!reader.problems().isEmpty()) {
            throw new InvalidInput(reader.problems());
        }
        List<String> left = declarationProblems(manifest);
        if (!left.isEmpty()) {
            throw new InvalidInput(left.stream().map(p -> file + ": " + p).toList());
        }
        return manifest;
    }

    /**
     * What the node-side check of a declaration would still refuse in this manifest's components:
     * nothing while the reader's rules cover the declaration's, but a rule added there alone is
     * still caught here, at {@code catalogue add}, rather than at the first push.
     */
    private static List<String> declarationProblems(Manifest m) {
        Declaration trial = new Declaration("catalogue", null, 1, m.components().keySet().stream()
                .map(name -> Manifests.spec(m, name, Map.of())).toList());
        return DeclarationCheck.catalogueProblems(trial);
    }

    private static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(0);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(1024 * 1024);
        // compose and parse only: no Java object is ever constructed from the text
        return new Yaml(new SafeConstructor(options));
    }

    /** The problems of the file's shape, from its events: an alias, or a second document. */
    private static List<String> structure(String file, String yaml) {
        List<String> problems = new ArrayList<>();
        int documents = 0;
        for (Event event : yaml().parse(new StringReader(yaml))) {
            if (event instanceof AliasEvent alias) {
                problems.add(at(file, alias.getStartMark()) + "an alias (*" + alias.getAnchor()
                        + ") is not allowed in a manifest; write the value out");
            } else if (event instanceof DocumentStartEvent start && ++documents == 2) {
                problems.add(at(file, start.getStartMark())
                        + "a second YAML document; a manifest file holds exactly one module (one document, no second '---')");
            }
        }
        return problems;
    }

    /** A syntax error where SnakeYAML found it, with a hint when it is about indentation. */
    private static String notYaml(String file, MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() == null ? "" : e.getProblem().strip();
        String context = e.getContext() == null || e.getContextMark() == null ? ""
                : " (" + e.getContext().strip() + " at line " + (e.getContextMark().getLine() + 1) + ")";
        boolean layout = problem.contains("<block end>") || problem.contains("mapping values are not allowed")
                || problem.contains("could not find expected ':'");
        return at(file, mark) + "not YAML: " + problem + context
                + (layout ? "; check the indentation: keys of one mapping start in the same column" : "");
    }

    /**
     * The module a text names if it reads as a manifest (a YAML mapping with {@code module: NAME}),
     * else null: for a verb given a manifest where it takes something else, to say so.
     */
    public static String moduleOf(String text) {
        try {
            if (yaml().compose(new StringReader(text == null ? "" : text)) instanceof org.yaml.snakeyaml.nodes.MappingNode m) {
                return m.getValue().stream()
                        .filter(t -> t.getKeyNode() instanceof org.yaml.snakeyaml.nodes.ScalarNode k && "module".equals(k.getValue())
                                && t.getValueNode() instanceof org.yaml.snakeyaml.nodes.ScalarNode v && !v.getValue().isBlank())
                        .map(t -> ((org.yaml.snakeyaml.nodes.ScalarNode) t.getValueNode()).getValue())
                        .findFirst().orElse(null);
            }
        } catch (YAMLException e) {
            return null;
        }
        return null;
    }

    /**
     * {@code FILE:LINE:COLUMN} of a key path in a manifest's text (of the last key, or of its value when
     * {@code value}), or {@code FILE} alone when the text is not known or does not hold the path.
     */
    static String where(String file, String yaml, boolean value, String... keys) {
        if (yaml == null) {
            return file;
        }
        Node node;
        try {
            node = yaml().compose(new StringReader(yaml));
        } catch (YAMLException e) {
            return file;
        }
        Node found = null;
        for (String key : keys) {
            if (!(node instanceof org.yaml.snakeyaml.nodes.MappingNode m)) {
                return file;
            }
            org.yaml.snakeyaml.nodes.NodeTuple tuple = m.getValue().stream()
                    .filter(t -> t.getKeyNode() instanceof org.yaml.snakeyaml.nodes.ScalarNode k && key.equals(k.getValue()))
                    .findFirst().orElse(null);
            if (tuple == null) {
                return file;
            }
            found = tuple.getKeyNode();
            node = tuple.getValueNode();
        }
        Mark mark = (value ? node : found).getStartMark();
        return file + ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1);
    }

    private static String at(String file, Mark mark) {
        return mark == null ? file + ": " : file + ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1) + ": ";
    }
}
