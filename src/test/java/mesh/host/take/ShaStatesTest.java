package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ShaStatesTest: a copy's whole sha256 taken up again from its checkpoints after a write is the sha256 of the whole file
 * as it now is, read only from the checkpoint before the first changed byte; checkpoints serve only the file as it was.
 */
class ShaStatesTest {

    static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    static String sha256(Path file) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(file)) {
            byte[] b = new byte[MIB];
            for (int n; (n = in.read(b)) > 0; ) {
                d.update(b, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    ShaStates.Hashed hashed(Path file, ShaStates.Kept before, long changed) throws Exception {
        HashCache.Key key = HashCache.Key.of(file);
        return ShaStates.rehash(file, key.size(), before, changed, key);
    }

    @Test
    void anAppendIsHashedFromTheLastCheckpointOnly() throws Exception {
        Path f = Files.write(dir.resolve("f"), random(5 * MIB + 1000, 1));
        ShaStates.Hashed first = hashed(f, null, 0);
        assertEquals(sha256(f), first.sha256());
        assertEquals(5 * MIB + 1000, first.read());
        assertEquals(6, first.kept().states().size(), "checkpoints at 0 .. 5 MiB");
        long was = Files.size(f);
        Files.write(f, random(3 * MIB, 2), StandardOpenOption.APPEND);
        ShaStates.Hashed after = hashed(f, first.kept(), was);
        assertEquals(sha256(f), after.sha256());
        assertEquals(Files.size(f) - 5L * MIB, after.read(), "from the checkpoint at 5 MiB to the end");
        assertEquals(9, after.kept().states().size());
    }

    @Test
    void aBlockChangedInPlaceIsHashedFromTheCheckpointBeforeIt() throws Exception {
        byte[] bytes = random(8 * MIB, 3);
        Path f = Files.write(dir.resolve("f"), bytes);
        ShaStates.Hashed first = hashed(f, null, 0);
        bytes[3 * MIB + 17] ^= 1;
        Files.write(f, bytes);
        ShaStates.Hashed after = hashed(f, first.kept(), 3L * MIB + 17);
        assertEquals(sha256(f), after.sha256());
        assertEquals(5L * MIB, after.read());
        // a resume told a later offset than the real change would keep the old byte: the rule is the caller's to keep
        assertTrue(!hashed(f, first.kept(), 4L * MIB).sha256().equals(sha256(f)),
                "the checkpoints hold the bytes before them: a change before the resume point is not seen");
    }

    @Test
    void aFileCutShortIsHashedFromTheCheckpointAtOrBeforeItsNewEnd() throws Exception {
        Path f = Files.write(dir.resolve("f"), random(6 * MIB, 4));
        ShaStates.Hashed first = hashed(f, null, 0);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(3L * MIB + 5);
        }
        ShaStates.Hashed after = hashed(f, first.kept(), 3L * MIB + 5);
        assertEquals(sha256(f), after.sha256());
        assertEquals(5, after.read());
    }

    @Test
    void aFileThatGrowsPastItsCheckpointsIsRespacedAndStillRight() throws Exception {
        Path f = dir.resolve("sparse");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(1020L * MIB);   // a hole: zeros, not on the disk
        }
        ShaStates.Hashed first = hashed(f, null, 0);
        assertEquals(MIB, first.kept().every());
        long was = Files.size(f);
        Files.write(f, random(7 * MIB + 3, 5), StandardOpenOption.APPEND);
        ShaStates.Hashed after = hashed(f, first.kept(), was);
        assertEquals(2 * MIB, after.kept().every(), "1027 MiB needs checkpoints 2 MiB apart");
        assertEquals(sha256(f), after.sha256());
        assertEquals(Files.size(f) - 1020L * MIB, after.read(), "1020 MiB is a checkpoint of both spacings");
        assertTrue(after.kept().states().size() <= mesh.plan.ShaResume.MAX_CHECKPOINTS);
    }

    @Test
    void checkpointsServeOnlyTheFileAsItWasWhenKept() throws Exception {
        Path f = Files.write(dir.resolve("f"), random(2 * MIB, 6));
        ShaStates states = new ShaStates();
        ShaStates.Hashed h = hashed(f, null, 0);
        states.put(f, h.kept());
        assertNotNull(states.get(f, HashCache.Key.of(f)));
        Files.write(f, new byte[] {1}, StandardOpenOption.APPEND);
        assertNull(states.get(f, HashCache.Key.of(f)), "written since: its ctime and size changed");
        states.drop(f);
        assertNull(states.get(f, h.kept().key()));
    }
}
