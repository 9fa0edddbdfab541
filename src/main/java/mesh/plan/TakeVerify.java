package mesh.plan;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import mesh.model.VolumeManifest;

/**
 * TakeVerify compares a volume's manifest on the source with the one on the target: the digests
 * first, and when they differ the entries, to name the first path that differs and how (the
 * operator must learn which file, not only that the copy is wrong).
 */
public final class TakeVerify {

    private TakeVerify() {
    }

    /** The first difference in words, or null when the two match. */
    public static String difference(VolumeManifest source, VolumeManifest target) {
        if (Objects.equals(source.digest(), target.digest()) && source.digest() != null) {
            return null;
        }
        String where = "volume " + source.volume() + ": ";
        Map<String, VolumeManifest.Entry> there = new TreeMap<>();
        target.entries().forEach(e -> there.put(e.path(), e));
        Map<String, VolumeManifest.Entry> here = new TreeMap<>();
        source.entries().forEach(e -> here.put(e.path(), e));
        for (VolumeManifest.Entry s : here.values()) {
            VolumeManifest.Entry t = there.get(s.path());
            if (t == null) {
                return where + s.path() + " is missing on the target";
            }
            String field = field(s, t);
            if (field != null) {
                return where + s.path() + ": " + field;
            }
        }
        for (String path : there.keySet()) {
            if (!here.containsKey(path)) {
                return where + path + " is on the target but not on the source";
            }
        }
        return where + "the manifests' digests differ (" + source.digest() + " on the source, " + target.digest()
                + " on the target) though every entry matches";
    }

    private static String field(VolumeManifest.Entry s, VolumeManifest.Entry t) {
        if (!Objects.equals(s.type(), t.type())) {
            return "type " + s.type() + " on the source, " + t.type() + " on the target";
        }
        if (s.size() != t.size()) {
            return "size " + s.size() + " on the source, " + t.size() + " on the target";
        }
        if (!Objects.equals(s.sha256(), t.sha256())) {
            return "content differs (sha256 " + s.sha256() + " on the source, " + t.sha256() + " on the target)";
        }
        if (!Objects.equals(s.mode(), t.mode())) {
            return "mode " + s.mode() + " on the source, " + t.mode() + " on the target";
        }
        if (s.uid() != t.uid() || s.gid() != t.gid()) {
            return "owner " + s.uid() + ":" + s.gid() + " on the source, " + t.uid() + ":" + t.gid() + " on the target";
        }
        if (!Objects.equals(s.link(), t.link())) {
            return "link target " + s.link() + " on the source, " + t.link() + " on the target";
        }
        if (!Objects.equals(s.xattrs() == null ? Map.of() : s.xattrs(), t.xattrs() == null ? Map.of() : t.xattrs())) {
            return "extended attributes differ";
        }
        return null;
    }
}
