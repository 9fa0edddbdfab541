package mesh.host.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LogFilesTest: rotation by copy-and-truncate keeps a bounded set of files; the reader spans them. */
class LogFilesTest {

    @TempDir
    Path dir;

    @Test
    void rotatesPastTheLimitKeepsAtMostNFilesAndReadsTheLastLinesAcrossThem() throws IOException {
        LogFiles log = new LogFiles(dir.resolve("c.log"), new LogFiles.Limits(100, 3));
        // one appending writer for the whole test, as a process holds its descriptor (O_APPEND)
        try (FileOutputStream out = new FileOutputStream(log.current().toFile(), true)) {
            for (int i = 1; i <= 60; i++) {
                out.write(String.format("line %03d%n", i).getBytes(StandardCharsets.UTF_8));
                out.flush();
                log.rotateIfNeeded();
            }
        }
        assertEquals(List.of(dir.resolve("c.log.2"), dir.resolve("c.log.1"), dir.resolve("c.log")), log.files());
        assertFalse(Files.exists(dir.resolve("c.log.3")));
        for (Path f : log.files()) {
            assertTrue(Files.size(f) <= 110, f + " is " + Files.size(f) + " bytes");
        }
        List<String> expected = IntStream.rangeClosed(46, 60).mapToObj(i -> String.format("line %03d", i)).toList();
        assertEquals(expected, log.lastLines(15));
        assertEquals(List.of("line 060"), log.lastLines(1));
        // after the truncation the writer's next line lands at the start of the current file
        assertTrue(Files.readString(log.current()).isEmpty() || Files.readString(log.current()).startsWith("line "));
    }

    @Test
    void lastLinesOfAShortOrMissingLogIsWhatThereIs() throws IOException {
        LogFiles log = new LogFiles(dir.resolve("c.log"), new LogFiles.Limits(1000, 3));
        assertEquals(List.of(), log.lastLines(5));
        Files.writeString(log.current(), "a\nb\n");
        assertEquals(List.of("a", "b"), log.lastLines(5));
        Files.writeString(log.current(), "a\nb\nno newline yet");
        assertEquals(List.of("b", "no newline yet"), log.lastLines(2));
    }

    @Test
    void lastLinesOfALargeFileReadsOnlyItsEnd() throws IOException {
        Path f = dir.resolve("big.log");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            b.append("entry ").append(i).append('\n');
        }
        Files.writeString(f, b);
        assertEquals(List.of("entry 19997", "entry 19998", "entry 19999"), LogFiles.tail(f, 3));
        assertEquals(3000, LogFiles.tail(f, 3000).size());
    }

    @Test
    void followPassesNewLinesAndStartsAgainAfterARotation() throws Exception {
        LogFiles log = new LogFiles(dir.resolve("c.log"), new LogFiles.Limits(20, 2));
        Files.writeString(log.current(), "old line\n");
        List<String> seen = new CopyOnWriteArrayList<>();
        Thread follower = new Thread(() -> {
            try {
                log.follow(seen::add, () -> seen.size() < 3, Duration.ofMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        follower.start();
        try (FileOutputStream out = new FileOutputStream(log.current().toFile(), true)) {
            Thread.sleep(100);
            out.write("first new\nsecond ".getBytes(StandardCharsets.UTF_8));
            out.flush();
            awaitSize(seen, 1);
            assertTrue(log.rotateIfNeeded());
            Thread.sleep(100);
            out.write("after rotation\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            Thread.sleep(100);
            out.write("and more\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        follower.join(5000);
        assertFalse(follower.isAlive());
        assertEquals(List.of("first new", "after rotation", "and more"), new ArrayList<>(seen));
    }

    private static void awaitSize(List<String> seen, int n) throws InterruptedException {
        for (int i = 0; i < 200 && seen.size() < n; i++) {
            Thread.sleep(10);
        }
    }
}
