package mesh.model;

import java.util.List;

/**
 * VolumeIndex is every entry of one module volume as {@code lstat} sees it, without reading any file: what a
 * take's pass compares to send only what changed ({@code mesh.plan.VolumeDelta}). Entries are sorted by path,
 * the root being "."; {@code now} is the source's clock when the walk began (ms since the epoch).
 */
public record VolumeIndex(String volume, long now, List<Entry> entries) {

    public VolumeIndex {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /**
     * Entry is one entry: path relative to the root, type ({@code file|dir|link|other}), size (files), its
     * modification time (ms since the epoch), permission bits in octal, numeric owner, link target (links).
     */
    public record Entry(String path, String type, long size, long mtime, String mode, int uid, int gid, String link) {
    }
}
