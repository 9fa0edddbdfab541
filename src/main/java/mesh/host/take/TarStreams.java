package mesh.host.take;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * TarStreams runs GNU tar on the node to turn a volume's folder into an archive stream and back. tar, not
 * Java, reads and writes the files: it keeps numeric owners, permission bits, links, ACLs and extended
 * attributes, and it is the tool an operator would check a copy with. Nothing is buffered whole: the
 * archive goes from tar's stdout to its reader a chunk at a time ({@link ArchivePublisher}), and from the
 * caller's stream into tar's stdin.
 */
public final class TarStreams {

    /** The options both ends share: numeric owners, xattrs of every namespace a copy keeps, ACLs, modes. */
    static final List<String> KEEP = List.of("--numeric-owner", "--xattrs", "--xattrs-include=user.*",
            "--xattrs-include=security.*", "--xattrs-include=trusted.*", "--acls", "--preserve-permissions");

    private TarStreams() {
    }

    /** The command that writes {@code folder}'s contents, relative paths, as a tar stream on stdout. */
    static List<String> archiveCommand(Path folder) {
        List<String> command = new ArrayList<>(List.of("tar", "--create", "--file=-", "--directory=" + folder));
        command.addAll(KEEP);
        command.add(".");
        return command;
    }

    /**
     * The command that writes only the entries {@code list} names (NUL-separated, relative paths), each without
     * what is under it: a pass that sends what changed. {@code live}: the module writes meanwhile, so an entry
     * that vanished before tar read it is passed over (the next pass deletes it on the target).
     */
    static List<String> archiveCommand(Path folder, Path list, boolean live) {
        List<String> command = new ArrayList<>(List.of("tar", "--create", "--file=-", "--directory=" + folder,
                "--no-recursion", "--null", "--files-from=" + list));
        if (live) {
            command.addAll(LIVE);
        }
        command.addAll(KEEP);
        return command;
    }

    /** The whole folder's archive while the module writes it (a take's first pass): vanished entries passed over. */
    static List<String> liveArchiveCommand(Path folder) {
        List<String> command = new ArrayList<>(List.of("tar", "--create", "--file=-", "--directory=" + folder));
        command.addAll(LIVE);
        command.addAll(KEEP);
        command.add(".");
        return command;
    }

    /** What a live read tells tar: a file that vanished or changed while read is no error (the next pass sends it). */
    static final List<String> LIVE = List.of("--ignore-failed-read", "--warning=no-file-changed",
            "--warning=no-file-removed", "--warning=no-file-shrank");

    /** The command that reads a tar stream on stdin into {@code folder}, naming each member on stdout. */
    static List<String> extractCommand(Path folder) {
        List<String> command = new ArrayList<>(List.of("tar", "--extract", "--file=-", "--directory=" + folder,
                "--same-owner", "--verbose"));
        command.addAll(KEEP);
        return command;
    }

    /**
     * The command that makes what was written under {@code folder} durable: coreutils' {@code sync --file-system},
     * a syncfs(2) of the file system that holds it (Java has no syncfs; fsync of every extracted file costs a
     * call per file).
     */
    static List<String> syncCommand(Path folder) {
        return List.of("sync", "--file-system", folder.toString());
    }

    /** A running extraction into a folder: feed its stdin, count its members, then {@link #finish}. */
    public static Process extract(Path folder) throws IOException {
        return new ProcessBuilder(extractCommand(folder)).start();
    }

    public static int waitFor(Process p) throws IOException {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while tar ran", e);
        }
    }

    /** The last few KB of a process's stderr, read on a thread of its own so the process never blocks on it. */
    public static CompletableFuture<String> tail(InputStream err) {
        return CompletableFuture.supplyAsync(() -> {
            try (err) {
                byte[] all = err.readAllBytes();
                String text = new String(all, Math.max(0, all.length - 4096), Math.min(all.length, 4096),
                        StandardCharsets.UTF_8).strip();
                return text.isEmpty() ? "no message" : text.replace('\n', ' ');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
    }

    /** {@code p} when it is a relative path that stays inside a volume (no "..", no NUL); else refused. */
    static String inside(String p) {
        if (p == null || p.isEmpty() || p.startsWith("/") || p.indexOf('\0') >= 0
                || Arrays.asList(p.split("/")).contains("..")) {
            throw TakeRefused.bad("path '" + p + "' is not a path inside the volume");
        }
        return p;
    }

    /** The entries a pass sends, NUL-separated in a file of the agent's temporary folder, checked to stay under the volume. */
    static Path listFile(List<String> paths) {
        StringBuilder text = new StringBuilder();
        for (String p : paths) {
            text.append(inside(p)).append('\0');
        }
        try {
            Path list = Files.createTempFile("mesh-pass-", ".list");
            Files.writeString(list, text, StandardCharsets.UTF_8);
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the list of a pass: " + e.getMessage(), e);
        }
    }

    /** Deletes a pass's list ({@link #listFile}) once its archive ended; null: none. A list left behind costs a few bytes. */
    static void deleteListFile(Path list) {
        if (list == null) {
            return;
        }
        try {
            Files.deleteIfExists(list);
        } catch (IOException e) {
            Logger.getLogger("mesh.host").debugf("could not delete %s: %s", list, e.getMessage());
        }
    }
}
