package mesh.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import mesh.model.VolumeIndex;

/**
 * VolumeDelta decides one pass of a take's copy after the first: from the source's index and the target's
 * (lstat of every entry, nothing read), which entries the source sends and which the target deletes. Pure.
 *
 * <p>An entry is sent when the target lacks it, or has it as another type (then deleted first), or differs in
 * mode, owner or link target, or (files) in size or modification time (whole seconds: the archive keeps no
 * more). A file is also sent when it was modified at or after a second before {@code since}, the source's clock
 * when the previous pass began: the previous pass may have read it while it was written in the same clock
 * tick, so its time alone proves nothing (git's "racily clean" rule). A file the source marks {@code shared} (mapped
 * shared and writable during the take: a store into a dirty page of it sets no time) is always sent, by range when
 * the target holds it, so only its changed blocks travel. An entry only the target has is deleted
 * (the topmost of a subtree stands for it). What this misses (a write that sets an old time back, an extended
 * attribute changed alone) the whole manifest's verify after the fence still finds: the take then rolls back.
 *
 * @param delete the target's paths to delete, each subtree once, parents first
 * @param send   the source's paths to send, in the index's order (a folder before its entries)
 * @param bytes  the bytes of the files to send
 */
public record VolumeDelta(List<String> delete, List<String> send, long bytes) {

    /** How far before {@code since} a modification time makes a file suspect. */
    static final long RACY_MS = 1000;

    public boolean empty() {
        return delete.isEmpty() && send.isEmpty();
    }

    /** The delta that brings {@code target} to {@code source}; {@code since} 0: no earlier pass, every file is sent. */
    public static VolumeDelta of(VolumeIndex source, VolumeIndex target, long since) {
        Map<String, VolumeIndex.Entry> there = new HashMap<>();
        target.entries().forEach(e -> there.put(e.path(), e));
        Map<String, VolumeIndex.Entry> here = new HashMap<>();
        source.entries().forEach(e -> here.put(e.path(), e));
        List<String> gone = new ArrayList<>();
        List<String> send = new ArrayList<>();
        long bytes = 0;
        for (VolumeIndex.Entry s : source.entries()) {
            VolumeIndex.Entry t = there.get(s.path());
            if (t != null && !t.type().equals(s.type()) && !".".equals(s.path())) {
                gone.add(t.path());
                t = null;
            }
            if (t == null || differs(s, t, since)) {
                send.add(s.path());
                bytes += "file".equals(s.type()) ? s.size() : 0;
            }
        }
        for (VolumeIndex.Entry t : target.entries()) {
            if (!here.containsKey(t.path())) {
                gone.add(t.path());
            }
        }
        return new VolumeDelta(topmost(gone), send, bytes);
    }

    static boolean differs(VolumeIndex.Entry s, VolumeIndex.Entry t, long since) {
        if (!s.mode().equals(t.mode()) || s.uid() != t.uid() || s.gid() != t.gid() || !Objects.equals(s.link(), t.link())) {
            return true;
        }
        if (!"file".equals(s.type())) {
            return false;
        }
        return s.shared() || s.size() != t.size() || Math.floorDiv(s.mtime(), 1000) != Math.floorDiv(t.mtime(), 1000)
                || since <= 0 || s.mtime() >= since - RACY_MS;
    }

    /** The paths without those under another of them, sorted so that a parent comes first. */
    static List<String> topmost(List<String> paths) {
        List<String> sorted = paths.stream().distinct().sorted().toList();
        List<String> kept = new ArrayList<>();
        for (String p : sorted) {
            if (kept.stream().noneMatch(k -> p.startsWith(k + "/"))) {
                kept.add(p);
            }
        }
        return kept;
    }
}
