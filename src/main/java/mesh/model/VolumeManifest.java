package mesh.model;

import java.util.List;
import java.util.Map;

/**
 * VolumeManifest is what a node's agent says a module's volume holds (GET
 * /v1/volumes/{module}/{volume}/manifest): every file's path, type, size, mode, owner, link target,
 * sha256 and extended attributes, sorted by path, and the digest of that list. A take compares the
 * source's, made after the fence, with the target's, made after the copy.
 */
public record VolumeManifest(String module, String volume, long files, long bytes, String digest, List<Entry> entries) {

    public VolumeManifest {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /** Entry is one file, folder or link of the volume; the root is ".". */
    public record Entry(String path, String type, long size, String mode, long uid, long gid, String link, String sha256,
                        Map<String, String> xattrs) {
    }
}
