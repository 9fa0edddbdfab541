package mesh.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * ManifestNodes reads values out of a manifest's YAML node tree and collects, instead of throwing,
 * every problem as {@code FILE:LINE:COLUMN: field path: what is wrong}, so one run reports all of a
 * file's problems. It exists because the YAML node tree knows where each value stands in the file,
 * which a data-binding error does not, and because the manifest's own words ("a number, got "8080"")
 * teach better than a binding library's.
 */
final class ManifestNodes {

    static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");

    /** Field is one {@code key: value} of a mapping, with the key's node for where to point. */
    record Field(String key, Node keyNode, Node value) {
    }

    private final String file;
    private final List<String> problems = new ArrayList<>();

    ManifestNodes(String file) {
        this.file = file;
    }

    List<String> problems() {
        return problems;
    }

    /** Adds one problem, pointing at where {@code at} starts in the file. */
    void problem(Node at, String path, String what) {
        problems.add(where(at) + (path.isEmpty() ? "" : path + ": ") + what);
    }

    String where(Node at) {
        return at == null ? file + ": " : file + ":" + (at.getStartMark().getLine() + 1) + ":"
                + (at.getStartMark().getColumn() + 1) + ": ";
    }

    static boolean isNull(Node node) {
        return node == null || node instanceof ScalarNode s && Tag.NULL.equals(s.getTag())
                && s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
    }

    /** What a value is, in the manifest's words, for "…, got a list". */
    static String shown(Node node) {
        if (isNull(node)) {
            return "nothing";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        return quoted(((ScalarNode) node).getValue());
    }

    static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t") + "\"";
    }

    /**
     * The fields of a mapping in file order, or null (with a problem) if the node is not one. A key
     * given twice and a key not in {@code known} are problems; an unknown key near a known one is
     * answered with "did you mean".
     */
    Map<String, Field> mapping(Node node, String path, String what, List<String> known) {
        if (!(node instanceof MappingNode m)) {
            problem(node, path, what + ", got " + shown(node));
            return null;
        }
        Map<String, Field> fields = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k) || isNull(k)) {
                problem(t.getKeyNode(), path, "a key is a name, got " + shown(t.getKeyNode()));
                continue;
            }
            String key = k.getValue();
            String at = join(path, key);
            Field first = fields.get(key);
            if (first != null) {
                problem(k, at, "given twice (first on line " + (first.keyNode().getStartMark().getLine() + 1) + ")");
            } else if (known != null && !known.contains(key)) {
                problem(k, at, "unknown field" + ManifestSpelling.suggestion(key, known));
            } else {
                fields.put(key, new Field(key, k, t.getValueNode()));
            }
        }
        return fields;
    }

    /** A string value: any scalar, numbers and booleans as written; null (with a problem) for anything else. */
    String text(Node node, String path) {
        if (node instanceof ScalarNode s && !isNull(s)) {
            return s.getValue();
        }
        problem(node, path, "a string, got " + shown(node));
        return null;
    }

    /** A whole number from {@code min} to {@code max}, written without quotes. */
    Integer number(Node node, String path, int min, int max) {
        if (!(node instanceof ScalarNode s) || isNull(s) || s.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN
                || !INTEGER.matcher(s.getValue()).matches()) {
            problem(node, path, "a number, got " + shown(node));
            return null;
        }
        long value;
        try {
            value = Long.parseLong(s.getValue().startsWith("+") ? s.getValue().substring(1) : s.getValue());
        } catch (NumberFormatException tooLong) {
            value = Long.MAX_VALUE;
        }
        if (value < min || value > max) {
            problem(node, path, "must be " + min + "-" + max + ", got " + s.getValue());
            return null;
        }
        return (int) value;
    }

    /** A list's items, or null (with a problem) if the node is not a list. */
    List<Node> list(Node node, String path, String what) {
        if (node instanceof SequenceNode s) {
            return s.getValue();
        }
        problem(node, path, what + ", got " + shown(node));
        return null;
    }

    /** A list of strings; a bad item is a problem and left out. */
    List<String> texts(Node node, String path, String what) {
        List<Node> items = list(node, path, what);
        return items == null ? List.of() : texts(items, path);
    }

    List<String> texts(List<Node> items, String path) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String t = text(items.get(i), path + "[" + i + "]");
            if (t != null) {
                texts.add(t);
            }
        }
        return texts;
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
