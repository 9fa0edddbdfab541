package mesh.host.take;

import com.dynatrace.hash4j.hashing.HashStream128;
import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import mesh.plan.ShaResume;

/**
 * Checkpoints lets a take's source hash after the fence only what its module changed in a large file, not the whole
 * grown file (docs/take.md, "The verify's hashes"). When an agent hashes a file whole for a manifest (the warm one made
 * before the fence, the module running), it keeps SHA-256's running state at every checkpoint ({@link ShaResume#every})
 * and an XXH3-128 fingerprint of each whole interval between two checkpoints, both taken from the same bytes as read.
 * After the fence the range answer ({@link RangePublisher}) reads the file anyway: it fingerprints each interval again
 * ({@link RangeScanner}, on several threads); while an interval's fingerprint is the kept one, its bytes are those the
 * kept state was taken over, and at the first interval that differs (or past the last one kept) SHA-256 resumes from that
 * interval's checkpoint. So
 * the sha256 the verify compares is still the whole file's, and an appended file costs SHA-256 over its tail only.
 * <p>
 * The fingerprint decides what SHA-256 does not read again, so it must not call a changed interval unchanged: XXH3-128
 * (hash4j) is a 128-bit hash, so two different intervals match by chance with odds of about 2^-128 each (a CRC pair would
 * be 64 bits and linear: the delta's block choice already uses one, and the two choices must not fail together). It is
 * not cryptographic: a module that crafted XXH3 collisions in its own data could hide a change from the verify. It runs
 * at ~8 GB/s here where SHA-256 (with the CPU's SHA instructions) runs at 1.8 GB/s, so the reading, at page-cache speed,
 * is most of the cost. Correctness needs no timestamps: a state and its fingerprint are of the same bytes as read.
 * Bounded: at most {@link #MAX_STATES} states (~200 bytes) and fingerprints (16 bytes) kept, ~1.8 MB, by path, the least
 * recently used files going first.
 */
final class Checkpoints {

    static final int MAX_STATES = 8192;
    private static final int READ = 1 << 20;

    /**
     * Kept is a file's checkpoints: {@code states.get(i)} is SHA-256 after {@code i × every} bytes, {@code marks[2i],
     * marks[2i+1]} the fingerprint of the interval from checkpoint i to i + 1 (one fewer than the states: whole intervals).
     */
    record Kept(int every, List<MessageDigest> states, long[] marks) {
        int intervals() {
            return marks.length / 2;
        }
    }

    private final KeptStates<Kept> kept = new KeptStates<>(k -> k.states().size(), MAX_STATES);

    Kept get(Path file) {
        return kept.get(file);
    }

    void put(Path file, Kept k) {
        kept.put(file, k);
    }

    /** The whole sha256 (hex) of {@code file}, read once, keeping its checkpoints here. */
    String hash(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int every = ShaResume.every(ch.size());
            MessageDigest digest = ShaStates.newDigest();
            HashStream128 mark = Hashing.xxh3_128().hashStream();
            List<MessageDigest> states = new ArrayList<>(List.of(ShaStates.copy(digest)));
            List<Long> marks = new ArrayList<>();
            byte[] bytes = new byte[READ];
            long at = 0;
            while (true) {
                long end = (at / every + 1) * every;
                int n = ch.read(ByteBuffer.wrap(bytes, 0, (int) Math.min(READ, end - at)), at);
                if (n < 0) {
                    break;
                }
                digest.update(bytes, 0, n);
                mark.putBytes(bytes, 0, n);
                at += n;
                if (at == end) {
                    states.add(ShaStates.copy(digest));
                    HashValue128 m = mark.get();
                    marks.add(m.getMostSignificantBits());
                    marks.add(m.getLeastSignificantBits());
                    mark.reset();
                }
            }
            put(file, new Kept(every, List.copyOf(states), marks.stream().mapToLong(Long::longValue).toArray()));
            return HexFormat.of().formatHex(digest.digest());
        }
    }
}
