package mesh.bundle;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * BundleEntryCheck decides, entry by entry, whether a bundle's tar may be unpacked: the lesson of
 * Nomad's artifact fetching (go-getter's "zip slip" and symlink escapes) made into one pure rule
 * book. It refuses an absolute path, a {@code ..} segment, a symbolic or hard link whose target
 * leaves the bundle, any entry placed under a symbolic link (which could redirect it anywhere),
 * a path that appears twice (a folder may be named again), special files (devices, fifos), and it counts entries and bytes
 * against {@link BundleLimits}. It keeps a tally of what it accepted, so one instance checks one tar.
 */
public final class BundleEntryCheck {

    /** Kind is what a tar entry makes on disk. */
    public enum Kind { DIRECTORY, FILE, SYMLINK, HARDLINK, OTHER }

    /** Entry is what the check needs of one tar header: its name, kind, size and link target. */
    public record Entry(String name, Kind kind, long size, String linkTarget) {
    }

    /** Verdict is the decision on one entry: {@link Accept} with its clean relative path, or {@link Refuse}. */
    public sealed interface Verdict permits Accept, Refuse {
    }

    /** Accept: unpack the entry at {@code path} (relative, '/'-separated, "." for the bundle's root). */
    public record Accept(String path) implements Verdict {
    }

    /**
     * Refuse: the bundle must not be unpacked; {@code reason} names the entry and the rule it breaks,
     * {@code overLimit} tells a bundle that is too large from one that is unsafe.
     */
    public record Refuse(String reason, boolean overLimit) implements Verdict {
    }

    private final BundleLimits limits;
    private final Map<String, Kind> accepted = new HashMap<>();
    private long bytes;
    private int entries;

    public BundleEntryCheck(BundleLimits limits) {
        this.limits = limits;
    }

    public Verdict next(Entry e) {
        String path = normalize(e.name());
        if (path == null) {
            return refuse(e, e.name().startsWith("/") ? "is an absolute path" : "leaves the bundle ('..')");
        }
        if (e.name().indexOf('\0') >= 0) {
            return refuse(e, "has a NUL character in its name");
        }
        if (path.equals(".")) {
            return e.kind() == Kind.DIRECTORY ? new Accept(".") : refuse(e, "is not a directory but names the bundle's root");
        }
        Kind before = accepted.get(path);
        if (before != null && !(before == Kind.DIRECTORY && e.kind() == Kind.DIRECTORY)) {
            return refuse(e, "appears twice");
        }
        String blocked = parentThatIsNotADirectory(path);
        if (blocked != null) {
            return refuse(e, "lies under '" + blocked + "', which is a " + describe(accepted.get(blocked)));
        }
        switch (e.kind()) {
            case OTHER -> {
                return refuse(e, "is a device, fifo or other special file");
            }
            case SYMLINK -> {
                String problem = symlinkProblem(path, e.linkTarget());
                if (problem != null) {
                    return refuse(e, problem);
                }
            }
            case HARDLINK -> {
                String target = e.linkTarget() == null ? null : normalize(e.linkTarget());
                if (target == null || target.equals(".")) {
                    return refuse(e, "is a hard link to '" + e.linkTarget() + "', outside the bundle");
                }
                if (accepted.get(target) != Kind.FILE) {
                    return refuse(e, "is a hard link to '" + target + "', which is not a file earlier in the bundle");
                }
            }
            case FILE -> {
                if (e.size() < 0) {
                    return refuse(e, "has a negative size");
                }
                if (bytes + e.size() > limits.maxBytes()) {
                    return overLimit(e, "takes the bundle over its size limit of " + limits.maxBytes() + " bytes unpacked");
                }
                bytes += e.size();
            }
            case DIRECTORY -> {
            }
        }
        if (++entries > limits.maxEntries()) {
            return overLimit(e, "takes the bundle over its limit of " + limits.maxEntries() + " files");
        }
        accepted.put(path, e.kind());
        // folders made on the way ("a" for "a/b") are folders from now on: "a" cannot come later as a file or link
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
            accepted.putIfAbsent(path.substring(0, slash), Kind.DIRECTORY);
        }
        return new Accept(path);
    }

    public long bytes() {
        return bytes;
    }

    public int entries() {
        return entries;
    }

    /**
     * The clean relative form of a tar name ("./a//b/" → "a/b", "./" → "."); null when it is
     * absolute or any ".." leaves the root.
     */
    static String normalize(String name) {
        if (name == null || name.isEmpty() || name.startsWith("/")) {
            return null;
        }
        Deque<String> parts = new ArrayDeque<>();
        for (String part : name.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                return null; // even "a/../b", which stays inside: no honest tar writes it
            }
            parts.addLast(part);
        }
        return parts.isEmpty() ? "." : String.join("/", parts);
    }

    /**
     * A symbolic link's target must be relative, and of the form {@code ../../a/b}: some steps up
     * (never above the bundle's root) and then only down. A ".." after a name is refused even when
     * it looks harmless, because that name may itself be a link (with {@code t -> .}, the target
     * {@code t/..} is the bundle's parent). Since no entry lies under a link, every link's own folder
     * is a real folder, and chains of such links stay inside.
     */
    private static String symlinkProblem(String path, String target) {
        if (target == null || target.isEmpty()) {
            return "is a symbolic link to nothing";
        }
        if (target.startsWith("/")) {
            return "is a symbolic link to the absolute path '" + target + "'";
        }
        int depth = path.split("/").length - 1; // folders between the root and the link
        boolean descending = false;
        for (String part : target.split("/")) {
            if (part.equals("..")) {
                if (descending) {
                    return "is a symbolic link to '" + target + "', which climbs ('..') after a name and may leave the bundle";
                }
                if (--depth < 0) {
                    return "is a symbolic link to '" + target + "', outside the bundle";
                }
            } else if (!part.isEmpty() && !part.equals(".")) {
                descending = true;
            }
        }
        return null;
    }

    /** The nearest parent of {@code path} that was accepted as something else than a folder. */
    private String parentThatIsNotADirectory(String path) {
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
            String parent = path.substring(0, slash);
            Kind kind = accepted.get(parent);
            if (kind != null && kind != Kind.DIRECTORY) {
                return parent;
            }
        }
        return null;
    }

    private static String describe(Kind kind) {
        return switch (kind) {
            case SYMLINK -> "symbolic link";
            case HARDLINK -> "hard link";
            case FILE -> "file";
            default -> kind.name().toLowerCase();
        };
    }

    private static Refuse refuse(Entry e, String why) {
        return new Refuse("entry '" + e.name() + "' " + why, false);
    }

    private static Refuse overLimit(Entry e, String why) {
        return new Refuse("entry '" + e.name() + "' " + why, true);
    }
}
