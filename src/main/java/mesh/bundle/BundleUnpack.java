package mesh.bundle;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * BundleUnpack unpacks a verified layer into a folder that must not exist yet, all or nothing: into
 * a hidden sibling first, every entry judged by {@link BundleEntryCheck}, then renamed into place
 * in one step. A refused entry, a limit or a disk error removes the sibling, so the target stays
 * absent. Files are created new and never through a link (defence in depth behind the check).
 */
public final class BundleUnpack {

    private BundleUnpack() {
    }

    static void unpack(Path layer, Path target, BundleLimits limits, String subject) {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new BundleFailure(subject, BundleFailure.Reason.INPUT, "the target folder " + target + " already exists");
        }
        Path parent = target.toAbsolutePath().getParent();
        Path staging = parent.resolve("." + target.getFileName() + ".unpacking-" + UUID.randomUUID().toString().substring(0, 8));
        boolean done = false;
        try {
            Files.createDirectories(parent);
            Files.createDirectory(staging);
            extract(layer, staging, new BundleEntryCheck(limits), subject);
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            done = true;
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.LOCAL, "cannot unpack into " + target + ": " + e.getMessage(), e);
        } finally {
            if (!done) {
                deleteTree(staging);
            }
        }
    }

    private static void extract(Path layer, Path root, BundleEntryCheck check, String subject) throws IOException {
        try (InputStream file = new BufferedInputStream(Files.newInputStream(layer));
                GzipCompressorInputStream gz = gunzip(file, subject);
                TarArchiveInputStream tar = new TarArchiveInputStream(gz, "UTF-8")) {
            TarArchiveEntry e;
            while ((e = nextEntry(tar, subject)) != null) {
                BundleEntryCheck.Verdict verdict = check.next(facts(e));
                if (verdict instanceof BundleEntryCheck.Refuse refuse) {
                    BundleFailure.Reason reason = refuse.overLimit() ? BundleFailure.Reason.TOO_LARGE : BundleFailure.Reason.UNSAFE_ENTRY;
                    throw new BundleFailure(subject, reason, "its layer is refused: " + refuse.reason());
                }
                String path = ((BundleEntryCheck.Accept) verdict).path();
                if (path.equals(".")) {
                    continue;
                }
                Path to = root.resolve(path);
                Files.createDirectories(to.getParent());
                if (e.isDirectory()) {
                    Files.createDirectories(to);
                } else if (e.isSymbolicLink()) {
                    Files.createSymbolicLink(to, Path.of(e.getLinkName()));
                } else if (e.isLink()) {
                    Files.createLink(to, root.resolve(BundleEntryCheck.normalize(e.getLinkName())));
                } else {
                    write(tar, to, e, subject);
                }
            }
        }
    }

    private static GzipCompressorInputStream gunzip(InputStream in, String subject) {
        try {
            return new GzipCompressorInputStream(in);
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, "its layer is not gzip: " + e.getMessage());
        }
    }

    private static TarArchiveEntry nextEntry(TarArchiveInputStream tar, String subject) {
        try {
            return tar.getNextEntry();
        } catch (IOException e) {
            throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, "its layer is not a readable tar: " + e.getMessage());
        }
    }

    static BundleEntryCheck.Entry facts(TarArchiveEntry e) {
        BundleEntryCheck.Kind kind;
        if (e.isDirectory()) {
            kind = BundleEntryCheck.Kind.DIRECTORY;
        } else if (e.isSymbolicLink()) {
            kind = BundleEntryCheck.Kind.SYMLINK;
        } else if (e.isLink()) {
            kind = BundleEntryCheck.Kind.HARDLINK;
        } else if (e.isFile()) {
            kind = BundleEntryCheck.Kind.FILE;
        } else {
            kind = BundleEntryCheck.Kind.OTHER;
        }
        return new BundleEntryCheck.Entry(e.getName(), kind, e.getSize(),
                kind == BundleEntryCheck.Kind.SYMLINK || kind == BundleEntryCheck.Kind.HARDLINK ? e.getLinkName() : null);
    }

    /** Copies the entry's bytes into a new file; never more than its header said (the check counted those). */
    private static void write(TarArchiveInputStream tar, Path to, TarArchiveEntry e, String subject) throws IOException {
        try (OutputStream out = Files.newOutputStream(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            long copied = tar.transferTo(out);
            if (copied != e.getSize()) {
                throw new BundleFailure(subject, BundleFailure.Reason.NOT_A_BUNDLE, "its layer ends inside entry '"
                        + e.getName() + "' (" + copied + " of " + e.getSize() + " bytes)");
            }
        } catch (FileAlreadyExistsException ex) {
            throw new BundleFailure(subject, BundleFailure.Reason.UNSAFE_ENTRY, "its layer is refused: entry '" + e.getName() + "' appears twice");
        }
        boolean executable = (e.getMode() & 0111) != 0;
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
    }

    /**
     * Deletes a bundle's folder (unpacked, cached, or half made) and everything in it, quietly: what a failure leaves
     * is hidden or named by a digest nothing uses any more, and the next cleanup tries again. Nothing to do when it is
     * not there.
     */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // left for the next cleanup: a partial staging folder is hidden and never used
        }
    }
}
