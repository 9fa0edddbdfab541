package mesh.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * ManifestCheck holds the rules one value of a manifest must keep on its own: names that are DNS
 * names, image references Docker accepts, volume paths, stop timeouts. Each rule answers null when
 * the value is good and otherwise says, in the manifest's words, what is wrong with it. What needs
 * several values (one volume per path, a route to a known component) is {@link ManifestReader}'s;
 * what needs the whole mesh (a bound name nobody serves) is the planner's.
 */
final class ManifestCheck {

    static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    /** Docker's rule for a volume name (the volume is {@code <module>_<name>}). */
    static final Pattern VOLUME_NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]*");
    static final int MAX_STOP_TIMEOUT_SECONDS = 3600;

    /**
     * IMAGE is Docker's image reference grammar, as distribution/reference writes it
     * (https://github.com/distribution/reference/blob/v0.5.0/reference.go, "Grammar", and the
     * expressions in regexp.go): {@code name[:tag][@digest]}, where name is
     * {@code [domain[:port]/]path-component[/path-component]*}, a path component is lower-case
     * letters and digits joined by '.', '_', '__' or dashes, a tag is {@code [\w][\w.-]{0,127}}
     * and a digest is {@code algorithm:hex} with at least 32 hex digits.
     */
    static final Pattern IMAGE;

    static {
        String alnum = "[a-z0-9]+";
        String separator = "(?:[._]|__|[-]+)";
        String pathComponent = alnum + "(?:" + separator + alnum + ")*";
        String domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
        String host = "(?:" + domainComponent + "(?:\\." + domainComponent + ")*|\\[[a-fA-F0-9:]+\\])";
        String domain = host + "(?::[0-9]+)?";
        String name = "(?<name>(?:" + domain + "/)?" + pathComponent + "(?:/" + pathComponent + ")*)";
        String tag = "[\\w][\\w.-]{0,127}";
        String digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
        IMAGE = Pattern.compile(name + "(?::" + tag + ")?(?:@" + digest + ")?");
    }

    /** distribution/reference's NameTotalLengthMax. */
    static final int MAX_IMAGE_NAME = 255;

    private ManifestCheck() {
    }

    static final String LABEL_RULE = "lower-case letters, digits and '-', 1-63 characters, not starting or ending with '-'";

    /** A DNS label: what module, route and node names are, and each dot-separated part of a component name. */
    static String labelProblem(String label) {
        if (LABEL.matcher(label).matches()) {
            return null;
        }
        String shown = ManifestNodes.quoted(cut(label));
        String lower = label.toLowerCase(Locale.ROOT);
        if (label.isEmpty()) {
            return "an empty name part (two dots, or a dot at the start or end)";
        }
        if (label.length() > 63) {
            return shown + " is " + label.length() + " characters; a DNS label has at most 63";
        }
        if (!lower.equals(label) && LABEL.matcher(lower).matches()) {
            return shown + " has upper-case letters; names are lower-case (" + lower + ")";
        }
        if (label.contains("_")) {
            return shown + " has '_', which a DNS name cannot hold; use '-'";
        }
        String others = lower.codePoints().filter(c -> !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'))
                .distinct().mapToObj(c -> "'" + Character.toString(c) + "'").collect(Collectors.joining(", "));
        if (!others.isEmpty()) {
            return shown + " holds " + others + ", which a DNS name cannot; " + LABEL_RULE;
        }
        if (!lower.equals(label)) {
            return shown + " has upper-case letters; names are lower-case";
        }
        return shown + " starts or ends with '-'";
    }

    /** A name of one label (module, route): null when good. */
    static String singleLabelProblem(String name) {
        if (name.contains(".")) {
            return "must be one DNS label, without '.' (" + LABEL_RULE + "), got " + ManifestNodes.quoted(name);
        }
        String p = labelProblem(name);
        return p == null ? null : "not a valid name: " + p;
    }

    /**
     * A dotted DNS name (component names like {@code gitea.server}; the names a component binds):
     * every part a DNS label, at most {@code max} characters in all, no trailing dot. A bad part is
     * named after the whole name, as given.
     */
    static String dottedNameProblem(String name, int max) {
        if (name.length() > max) {
            return ManifestNodes.quoted(cut(name)) + " is " + name.length() + " characters; at most " + max;
        }
        for (String label : name.split("\\.", -1)) {
            String p = labelProblem(label);
            if (p != null) {
                // the name as given first: a part alone ("internal:5432") is not what the operator wrote
                return "not a valid name: " + (label.equals(name) ? "" : ManifestNodes.quoted(cut(name)) + ": ") + p;
            }
        }
        return null;
    }

    static String imageProblem(String image) {
        Matcher m = IMAGE.matcher(image);
        if (m.matches()) {
            return m.group("name").length() > MAX_IMAGE_NAME
                    ? "the image name is " + m.group("name").length() + " characters; Docker allows " + MAX_IMAGE_NAME
                    : null;
        }
        String lower = image.toLowerCase(Locale.ROOT);
        if (!lower.equals(image) && IMAGE.matcher(lower).matches()) {
            return "not an image reference: " + ManifestNodes.quoted(image)
                    + "; Docker refuses upper-case letters in a repository name";
        }
        return "not an image reference: " + ManifestNodes.quoted(image)
                + " (like nginx:1.27, registry.example:5000/team/app:2 or app@sha256:<digest>)";
    }

    static String volumeNameProblem(String name) {
        return VOLUME_NAME.matcher(name).matches() ? null
                : "not a volume name: letters, digits, '_', '.' or '-', starting with a letter or digit";
    }

    /** An absolute, normalised path other than {@code /}, so two spellings of one path cannot both be volumes. */
    static String volumePathProblem(String path) {
        if (!path.startsWith("/")) {
            return "must be an absolute path (starting with '/'), got " + ManifestNodes.quoted(path);
        }
        if (path.equals("/")) {
            return "cannot be '/': a volume over the container's whole file system";
        }
        if (path.indexOf('\0') >= 0) {
            return "must not hold a NUL character";
        }
        List<String> parts = new ArrayList<>();
        for (String part : path.substring(1).split("/", -1)) {
            if (part.equals("..")) {
                return "must not climb with '..', got " + ManifestNodes.quoted(path);
            }
            if (!part.isEmpty() && !part.equals(".")) {
                parts.add(part);
            }
        }
        String normal = "/" + String.join("/", parts);
        if (normal.equals("/")) {
            return "cannot be '/' (written " + ManifestNodes.quoted(path) + "): a volume over the container's whole file system";
        }
        if (!normal.equals(path)) {
            return "write it normalised, as " + ManifestNodes.quoted(normal) + ", got " + ManifestNodes.quoted(path);
        }
        return null;
    }

    /** A stop timeout ({@link DurationText}: {@code 30s}, {@code 2m}, {@code 1500ms}, a bare number in seconds), at most an hour. */
    static String durationProblem(String text) {
        String problem = DurationText.problem(text);
        if (problem != null) {
            return "must be " + DurationText.EXPECTED + ", got " + ManifestNodes.quoted(text);
        }
        return DurationText.parse(text).toMillis() > MAX_STOP_TIMEOUT_SECONDS * 1000L ? "must be at most 60m, got " + text : null;
    }

    /** The seconds of a good duration; milliseconds round up, so 1500ms waits 2 s. */
    static int seconds(String text) {
        long millis = DurationText.parse(text).toMillis();
        return (int) Math.min((millis + 999) / 1000, Integer.MAX_VALUE);
    }

    private static String cut(String text) {
        return text.length() <= 20 ? text : text.substring(0, 17) + "...";
    }
}
