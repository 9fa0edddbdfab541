package mesh.host.records;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * DurableFile writes one of the agent's records (a declaration, a take's fence, a supervised process) so that
 * a crash at any moment leaves the old content or the new one, never a torn file: a hidden temporary file
 * beside it ({@code .NAME.tmp}, which no reader lists), fsync, atomic rename over the record, fsync of the
 * folder. The agent answers only after this returns, so what it acknowledged is on disk.
 */
public final class DurableFile {

    private DurableFile() {
    }

    /** Replaces {@code file} with {@code bytes} durably, making its folder if needed. */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                ch.write(buffer);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel folder = FileChannel.open(dir, StandardOpenOption.READ)) {
            folder.force(true);
        }
    }
}
