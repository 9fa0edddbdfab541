package mesh.host.take;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import mesh.model.VolumeManifest;
import mesh.model.VolumeManifest.Entry;

/**
 * ManifestForm is the canonical form of a volume manifest, its digest and the diff of two manifests: what
 * makes "the copy is the same as the source" one comparison of two strings, and a difference a sentence
 * naming the first path and field that differ. Pure.
 *
 * <p>The canonical form is one line per entry, sorted by path (compared as strings), fields separated by a
 * tab: path, type, size, mode, uid, gid, link, sha256, xattrs (name=value pairs sorted by name, joined by
 * ','). Strings are written quoted, with '\', '"' and control characters escaped; null is {@code null}.
 * The digest is {@code sha256:} and the hex sha256 of the form's UTF-8 bytes.
 */
public final class ManifestForm {

    private ManifestForm() {
    }

    /** The manifest of a volume from its entries (in any order): sorted, counted, digested. */
    public static VolumeManifest of(String module, String volume, List<Entry> entries) {
        List<Entry> sorted = sorted(entries);
        long files = sorted.stream().filter(e -> "file".equals(e.type())).count();
        long bytes = sorted.stream().mapToLong(Entry::size).sum();
        return new VolumeManifest(module, volume, files, bytes, digest(sorted), sorted);
    }

    public static List<Entry> sorted(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::path));
        return List.copyOf(sorted);
    }

    /** The canonical form of the entries (sorted first). */
    public static String canonical(List<Entry> entries) {
        StringBuilder out = new StringBuilder();
        for (Entry e : sorted(entries)) {
            out.append(quote(e.path())).append('\t').append(quote(e.type())).append('\t').append(e.size()).append('\t')
                    .append(quote(e.mode())).append('\t').append(e.uid()).append('\t').append(e.gid()).append('\t')
                    .append(quote(e.link())).append('\t').append(quote(e.sha256())).append('\t');
            boolean first = true;
            for (Map.Entry<String, String> x : new TreeMap<>(e.xattrs()).entrySet()) {
                out.append(first ? "" : ",").append(quote(x.getKey())).append('=').append(quote(x.getValue()));
                first = false;
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** {@code sha256:<hex>} of the canonical form. */
    public static String digest(List<Entry> entries) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical(entries).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }

    /**
     * The first difference between the source's manifest and the target's, as a sentence naming the path and
     * the field ({@code "path a/b: sha256 differs (source 12ab…, target 34cd…)"}); empty when they are equal
     * entry by entry.
     */
    public static Optional<String> diff(List<Entry> source, List<Entry> target) {
        List<Entry> a = sorted(source);
        List<Entry> b = sorted(target);
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            int order = i >= a.size() ? 1 : j >= b.size() ? -1 : a.get(i).path().compareTo(b.get(j).path());
            if (order < 0) {
                return Optional.of("path " + a.get(i).path() + ": only on the source");
            }
            if (order > 0) {
                return Optional.of("path " + b.get(j).path() + ": only on the target");
            }
            Optional<String> field = field(a.get(i), b.get(j));
            if (field.isPresent()) {
                return Optional.of("path " + a.get(i).path() + ": " + field.get());
            }
            i++;
            j++;
        }
        return Optional.empty();
    }

    private static Optional<String> field(Entry s, Entry t) {
        String[][] fields = {
            {"type", s.type(), t.type()},
            {"size", Long.toString(s.size()), Long.toString(t.size())},
            {"mode", s.mode(), t.mode()},
            {"uid", Integer.toString(s.uid()), Integer.toString(t.uid())},
            {"gid", Integer.toString(s.gid()), Integer.toString(t.gid())},
            {"link", s.link(), t.link()},
            {"sha256", s.sha256(), t.sha256()},
            {"xattrs", new TreeMap<>(s.xattrs()).toString(), new TreeMap<>(t.xattrs()).toString()},
        };
        for (String[] f : fields) {
            if (!Objects.equals(f[1], f[2])) {
                return Optional.of(f[0] + " differs (source " + shorten(f[1]) + ", target " + shorten(f[2]) + ")");
            }
        }
        return Optional.empty();
    }

    private static String shorten(String value) {
        return value == null ? "none" : value.length() > 16 ? value.substring(0, 12) + "…" : value;
    }

    /**
     * A string quoted for the canonical form. Written by hand rather than with Jackson: the form must never
     * change with a library's escaping choices, since two nodes compare its digest.
     */
    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
