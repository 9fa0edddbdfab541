package mesh.bundle;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipParameters;

/**
 * BundleTar writes a file or a folder as a bundle's layer, a reproducible tar.gz: entries sorted by
 * path, every time stamp 0, owner and group 0 without names, modes reduced to 0755 (folders and
 * executables) or 0644, and a gzip header without time or file name. The same content therefore
 * gives the same bytes, hence the same digest, wherever and whenever it is pushed. Every entry goes
 * through the {@link BundleEntryCheck} the fetch will apply, so a folder with a link that leaves it
 * is refused at push, not on every node later.
 */
final class BundleTar {

    private static final FileTime EPOCH = FileTime.fromMillis(0);

    private BundleTar() {
    }

    /** One entry of the layer: its path inside the bundle and the file it comes from. */
    record Item(String path, Path source, BundleEntryCheck.Kind kind) {
    }

    /**
     * The entries of a bundle made from {@code source}, in the layer's order: a file gives one entry
     * named after it; a folder gives everything under it (not itself), links kept as links.
     *
     * @throws IllegalArgumentException for something that cannot be in a bundle (a device, a fifo)
     */
    static List<Item> items(Path source) throws IOException {
        if (!Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
            return List.of(new Item(source.getFileName().toString(), source, kindOf(source)));
        }
        List<Item> items = new ArrayList<>();
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : all.filter(p -> !p.equals(source)).toList()) {
                String path = source.relativize(p).toString().replace('\\', '/');
                items.add(new Item(path, p, kindOf(p)));
            }
        }
        items.sort((a, b) -> a.path().compareTo(b.path()));
        return items;
    }

    private static BundleEntryCheck.Kind kindOf(Path p) {
        if (Files.isSymbolicLink(p)) {
            return BundleEntryCheck.Kind.SYMLINK;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return BundleEntryCheck.Kind.DIRECTORY;
        }
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return BundleEntryCheck.Kind.FILE;
        }
        return BundleEntryCheck.Kind.OTHER;
    }

    /**
     * Writes the items as tar.gz to {@code out}, checking each against {@code check}.
     *
     * @throws IllegalArgumentException with the check's reason when an item may not be in a bundle
     */
    static void write(List<Item> items, BundleEntryCheck check, OutputStream out) throws IOException {
        GzipParameters gzip = new GzipParameters();
        gzip.setModificationTime(0);
        gzip.setOperatingSystem(255); // "unknown": the same on every machine
        try (GzipCompressorOutputStream gz = new GzipCompressorOutputStream(nonClosing(out), gzip);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz, "UTF-8")) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (Item item : items) {
                TarArchiveEntry entry = entry(item);
                BundleEntryCheck.Verdict verdict = check.next(new BundleEntryCheck.Entry(entry.getName(), item.kind(),
                        entry.getSize(), item.kind() == BundleEntryCheck.Kind.SYMLINK ? entry.getLinkName() : null));
                if (verdict instanceof BundleEntryCheck.Refuse refuse) {
                    throw new IllegalArgumentException(refuse.reason());
                }
                tar.putArchiveEntry(entry);
                if (item.kind() == BundleEntryCheck.Kind.FILE) {
                    Files.copy(item.source(), tar);
                }
                tar.closeArchiveEntry();
            }
            tar.finish();
        }
    }

    private static TarArchiveEntry entry(Item item) throws IOException {
        TarArchiveEntry e = switch (item.kind()) {
            case DIRECTORY -> {
                TarArchiveEntry d = new TarArchiveEntry(item.path() + "/", TarConstants.LF_DIR, false);
                d.setMode(TarArchiveEntry.DEFAULT_DIR_MODE);
                yield d;
            }
            case SYMLINK -> {
                TarArchiveEntry l = new TarArchiveEntry(item.path(), TarConstants.LF_SYMLINK, false);
                l.setLinkName(Files.readSymbolicLink(item.source()).toString());
                l.setMode(0120777);
                yield l;
            }
            case FILE -> {
                TarArchiveEntry f = new TarArchiveEntry(item.path(), TarConstants.LF_NORMAL, false);
                f.setSize(Files.size(item.source()));
                f.setMode(Files.isExecutable(item.source()) ? 0100755 : 0100644);
                yield f;
            }
            default -> throw new IllegalArgumentException("entry '" + item.path() + "' is a device, fifo or other special file");
        };
        e.setModTime(EPOCH);
        e.setUserId(0);
        e.setGroupId(0);
        e.setUserName("");
        e.setGroupName("");
        return e;
    }

    private static OutputStream nonClosing(OutputStream out) {
        return new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }
}
