package mesh.model;

import java.util.List;
import java.util.Map;

/**
 * VolumeManifest is every file of one module volume as a host agent sees it (docs/take.md): entries sorted
 * by path, the root being ".", and the digest of their canonical form (mesh.host.take.ManifestForm), which is
 * what two nodes compare first.
 */
public record VolumeManifest(String module, String volume, long files, long bytes, String digest, List<Entry> entries) {

    public VolumeManifest {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /**
     * Entry is one file: its path relative to the volume's root, type ({@code file|dir|link|other}), size
     * (0 unless a file), permission bits in octal ({@code "0644"}), numeric owner, link target (links only),
     * sha256 in hex (files only) and extended attributes of the user namespace (name to base64 value).
     */
    public record Entry(String path, String type, long size, String mode, int uid, int gid, String link, String sha256,
                        Map<String, String> xattrs) {

        public Entry {
            xattrs = xattrs == null ? Map.of() : Map.copyOf(xattrs);
        }
    }
}
