package mesh.host.backup;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.bundle.Digest;
import mesh.model.VolumeManifest;

/**
 * Packs decides which small file contents of a backup travel together in one blob (docs/backup.md, "Packs"). The
 * registry's cost is per request (about 5 ms a blob here, whatever its size: 1,000 small files cost as much as a 2 GB
 * one), so every content of at most {@link BlobsAhead#SMALL} goes into a pack of a few hundred KiB instead of a blob
 * of its own; a larger one keeps its own blob. Pure: the contents in, the packs' parts out.
 *
 * <p>The cut is content-defined, so a second backup of mostly unchanged data makes mostly the same packs and
 * uploads none of them again: contents are taken in the order of their first file (volume by volume, path by path),
 * a pack is closed after a content once it holds {@link #MIN} bytes and that content's sha256 says so (its
 * first byte a multiple of {@value #ONE_IN}), or before a content that would take it over {@link #MAX}. A file added, changed
 * or removed changes its own pack, and at most the next one or two, not every pack after it.
 */
final class Packs {

    /** The fewest bytes a pack holds before a content may close it. */
    static final long MIN = 256 * 1024;
    /** The most bytes a pack holds: the restore holds a few packs in memory at once. */
    static final long MAX = 1024 * 1024;
    /** One content in this many closes a pack that holds {@link #MIN} (the first byte of its sha256 a multiple of it). */
    static final int ONE_IN = 16;

    /** Content is one distinct small file content: its sha256 (hex) and size. */
    record Content(String sha256, long size) {
    }

    private Packs() {
    }

    /** Whether {@code e}'s content goes into a pack (a file of at most {@link BlobsAhead#SMALL} bytes). */
    static boolean packed(VolumeManifest.Entry e) {
        return BlobsAhead.small(e);
    }

    /** The distinct contents that go into packs, in the order of their first file in {@code volumes} (each its entries). */
    static List<Content> contents(List<List<VolumeManifest.Entry>> volumes) {
        Map<String, Content> seen = new LinkedHashMap<>();
        for (List<VolumeManifest.Entry> v : volumes) {
            for (VolumeManifest.Entry e : v) {
                if (packed(e)) {
                    seen.putIfAbsent(e.sha256(), new Content(e.sha256(), e.size()));
                }
            }
        }
        return List.copyOf(seen.values());
    }

    /** {@code contents} cut into packs, in order (see the class comment). */
    static List<List<Content>> cut(List<Content> contents) {
        List<List<Content>> packs = new ArrayList<>();
        List<Content> pack = new ArrayList<>();
        long bytes = 0;
        for (Content c : contents) {
            if (!pack.isEmpty() && bytes + c.size() > MAX) {
                packs.add(List.copyOf(pack));
                pack.clear();
                bytes = 0;
            }
            pack.add(c);
            bytes += c.size();
            if (bytes >= MIN && Integer.parseInt(c.sha256().substring(0, 2), 16) % ONE_IN == 0) {
                packs.add(List.copyOf(pack));
                pack.clear();
                bytes = 0;
            }
        }
        if (!pack.isEmpty()) {
            packs.add(List.copyOf(pack));
        }
        return List.copyOf(packs);
    }

    /**
     * A pack's name before its bytes are read: the sha256 of its contents' hashes and sizes. Equal names are equal
     * packs byte for byte, so a pack named before (in an earlier backup) need not be read again to know its digest.
     */
    static String key(List<Content> pack) {
        MessageDigest sha = Digest.sha256();
        for (Content c : pack) {
            sha.update((c.sha256() + " " + c.size() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The parts of a pack: each content at its offset, one after the other. */
    static List<BackupArtifact.Part> parts(List<Content> pack) {
        List<BackupArtifact.Part> parts = new ArrayList<>();
        long offset = 0;
        for (Content c : pack) {
            parts.add(new BackupArtifact.Part(c.sha256(), offset, c.size()));
            offset += c.size();
        }
        return List.copyOf(parts);
    }
}
