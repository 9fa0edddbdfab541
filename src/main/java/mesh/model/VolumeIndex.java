package mesh.model;

import com.fasterxml.jackson.annotation.JsonInclude;
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
     * modification time (ms since the epoch), permission bits in octal, numeric owner, link target (links), and
     * {@code shared}: a file some process mapped shared and writable during the take, whose times do not show every
     * write (docs/take.md, "The verify's hashes"), so a pass compares its bytes whatever its size and time say. Written
     * only when true: an agent that does not know the field then refuses the index rather than miss such a write. Boxed
     * because the mapper refuses a missing primitive.
     */
    public record Entry(String path, String type, long size, long mtime, String mode, int uid, int gid, String link,
                        @JsonInclude(JsonInclude.Include.NON_DEFAULT) Boolean shared) {

        public Entry {
            shared = Boolean.TRUE.equals(shared);   // absent (an earlier build's index): false
        }

        /** An entry whose times show every write. */
        public Entry(String path, String type, long size, long mtime, String mode, int uid, int gid, String link) {
            this(path, type, size, mtime, mode, uid, gid, link, false);
        }
    }
}
