package mesh.host.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * LogFiles is one component's log: {@code NAME.log} that the process appends to, and the older parts
 * {@code NAME.log.1} (newest) up to {@code NAME.log.(files-1)}, each at most about {@code maxBytes}.
 *
 * <p>Rotation is copy-then-truncate (logrotate's {@code copytruncate}), done by the supervisor on each pass:
 * the process keeps its descriptor, opened with O_APPEND, so after the truncation it writes at the start of
 * the emptied file. Hand-written because a rotating writer in the pipe (svlogd, rotatelogs) would be one
 * more process per component that must outlive the agent and whose death would take the component's
 * output with it. The trade-offs: lines written between the copy and the truncation are lost, and while the
 * agent is down nothing rotates (systemd restarts it within seconds).
 */
public final class LogFiles {

    /** Limits: each file about {@code maxBytes}, {@code files} in all (the current one included). */
    public record Limits(long maxBytes, int files) {
        public static final Limits DEFAULT = new Limits(10L * 1024 * 1024, 3);

        public Limits {
            if (maxBytes < 1 || files < 1) {
                throw new IllegalArgumentException("log limits must be positive, were " + maxBytes + " bytes and " + files + " files");
            }
        }
    }

    private final Path current;
    private final Limits limits;

    public LogFiles(Path current, Limits limits) {
        this.current = current;
        this.limits = limits;
    }

    /** The log of {@code component} under the agent's state dir: {@code <state-dir>/logs/<component>.log}. */
    public static LogFiles of(Path stateDir, String component, Limits limits) {
        return new LogFiles(stateDir.resolve("logs").resolve(component + ".log"), limits);
    }

    public Path current() {
        return current;
    }

    /** The files, oldest first, that exist. */
    public List<Path> files() {
        List<Path> all = new ArrayList<>();
        for (int i = limits.files() - 1; i >= 1; i--) {
            Path p = part(i);
            if (Files.exists(p)) {
                all.add(p);
            }
        }
        if (Files.exists(current)) {
            all.add(current);
        }
        return all;
    }

    /** Rotates when the current file has grown past the limit; returns whether it did. */
    public boolean rotateIfNeeded() {
        try {
            if (!Files.exists(current) || Files.size(current) <= limits.maxBytes()) {
                return false;
            }
            if (limits.files() == 1) {
                truncate();
                return true;
            }
            Files.deleteIfExists(part(limits.files() - 1));
            for (int i = limits.files() - 2; i >= 1; i--) {
                if (Files.exists(part(i))) {
                    Files.move(part(i), part(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.copy(current, part(1), StandardCopyOption.REPLACE_EXISTING);
            truncate();
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rotate the log " + current, e);
        }
    }

    /** The last {@code n} lines over all parts, oldest first. */
    public List<String> lastLines(int n) {
        Deque<String> lines = new ArrayDeque<>();
        List<Path> files = files();
        for (int i = files.size() - 1; i >= 0 && lines.size() < n; i--) {
            List<String> tail = tail(files.get(i), n - lines.size());
            for (int j = tail.size() - 1; j >= 0; j--) {
                lines.addFirst(tail.get(j));
            }
        }
        return new ArrayList<>(lines);
    }

    /**
     * follow passes each line appended to the current file from now on to {@code sink}, while
     * {@code keepGoing} holds, looking every {@code poll}. A rotation (the file got shorter) starts it again
     * at the start of the file.
     */
    public void follow(Consumer<String> sink, BooleanSupplier keepGoing, Duration poll) throws InterruptedException {
        long position = size();
        StringBuilder partial = new StringBuilder();
        while (keepGoing.getAsBoolean()) {
            long size = size();
            if (size < position) {
                position = 0;
                partial.setLength(0);
            }
            if (size > position) {
                byte[] bytes = read(position, size - position);
                position += bytes.length;
                partial.append(new String(bytes, StandardCharsets.UTF_8));
                int nl;
                while ((nl = partial.indexOf("\n")) >= 0) {
                    sink.accept(partial.substring(0, nl));
                    partial.delete(0, nl + 1);
                }
            } else {
                mesh.model.Poll.pauseInterruptibly(poll);
            }
        }
    }

    Path part(int i) {
        return current.resolveSibling(current.getFileName() + "." + i);
    }

    private void truncate() throws IOException {
        try (FileChannel ch = FileChannel.open(current, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
    }

    private long size() {
        try {
            return Files.exists(current) ? Files.size(current) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private byte[] read(long from, long length) {
        try (RandomAccessFile f = new RandomAccessFile(current.toFile(), "r")) {
            int len = (int) Math.min(length, Math.max(0, f.length() - from));
            byte[] bytes = new byte[Math.min(len, 1 << 20)];
            f.seek(from);
            f.readFully(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the log " + current, e);
        }
    }

    /** The last {@code n} lines of one file, read backwards in growing chunks so a 10 MiB file is not read whole. */
    static List<String> tail(Path file, int n) {
        if (n <= 0) {
            return List.of();
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            long chunk = 8192;
            while (true) {
                long from = Math.max(0, length - chunk);
                byte[] bytes = new byte[(int) (length - from)];
                f.seek(from);
                f.readFully(bytes);
                String text = new String(bytes, StandardCharsets.UTF_8);
                if (text.endsWith("\n")) {
                    text = text.substring(0, text.length() - 1);
                }
                List<String> lines = text.isEmpty() && from == 0 ? List.of() : List.of(text.split("\n", -1));
                if (lines.size() > n || from == 0) {
                    return lines.subList(Math.max(0, lines.size() - n), lines.size());
                }
                chunk *= 4;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the log " + file, e);
        }
    }
}
