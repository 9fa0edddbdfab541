package mesh.host.take;

import java.io.DataInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import mesh.client.HttpTransport;
import mesh.model.VolumeIndex;
import mesh.plan.BlockDelta;
import mesh.wire.CopyProgress;
import mesh.wire.RangeRequest;

/**
 * RangePass is the target's half of a take's deltas by range (docs/take.md, "Deltas by range"): for each changed file
 * it holds a copy of ({@link BlockDelta#ranged}), it hashes its copy's blocks, asks the source for the blocks that
 * differ ({@code POST …/ranges}), writes them in place, cuts the copy to the source's size and sets the source's
 * time. A file whose ranges fail goes whole into the pass's archive instead (tar replaces the half-written copy); a
 * source from before ranges answers 404 (or 401/403: its guard lets a ticket read no ranges), and every file then goes
 * whole. One block is in memory at a time.
 */
final class RangePass {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger("mesh.host");

    private final HttpTransport http;
    private final String base;
    private final String query;
    private final String ticket;
    private final Path folder;
    private final RunningCopies.Run run;
    private final Consumer<CopyProgress> progress;
    private final BlockCache kept;
    private final ShaStates shas;
    private final HashCache sums;
    private long bytes;
    private long lowest = Long.MAX_VALUE;
    private long files;
    private long saidAt = System.nanoTime();

    RangePass(HttpTransport http, String base, String query, String ticket, Path folder, RunningCopies.Run run,
              Consumer<CopyProgress> progress, BlockCache kept) {
        this.http = http;
        this.base = base;
        this.query = query;
        this.ticket = ticket;
        this.folder = folder;
        this.run = run;
        this.progress = progress;
        this.kept = kept;
        this.shas = kept.shas();
        this.sums = kept.sums();
    }

    /** The bytes of the blocks received. */
    long bytes() {
        return bytes;
    }

    /** The files brought up to date by range. */
    long files() {
        return files;
    }

    /**
     * Brings the files of {@code d} that go by range up to date ({@link BlockDelta#ranged}: the target's copy of them in
     * {@code here}); returns the paths the pass's archive still sends, in {@code d}'s order: the rest of its sends, and
     * the files whose ranges failed.
     */
    List<String> archived(mesh.plan.VolumeDelta d, VolumeIndex source, VolumeIndex here) {
        java.util.Map<String, VolumeIndex.Entry> s = byPath(source);
        java.util.Map<String, VolumeIndex.Entry> t = byPath(here);
        List<VolumeIndex.Entry> byRange = d.send().stream().filter(p -> BlockDelta.ranged(s.get(p), t.get(p))).map(s::get).toList();
        java.util.Set<String> tried = new java.util.HashSet<>(byRange.stream().map(VolumeIndex.Entry::path).toList());
        java.util.Set<String> whole = new java.util.HashSet<>(run(byRange));
        return d.send().stream().filter(p -> !tried.contains(p) || whole.contains(p)).toList();
    }

    private static java.util.Map<String, VolumeIndex.Entry> byPath(VolumeIndex index) {
        java.util.Map<String, VolumeIndex.Entry> m = new java.util.HashMap<>();
        index.entries().forEach(e -> m.put(e.path(), e));
        return m;
    }

    /**
     * Brings each of {@code ranged} (source entries whose target copy fits) up to date by range; returns those that must
     * still go whole in the archive.
     */
    List<String> run(List<VolumeIndex.Entry> ranged) {
        List<String> whole = new ArrayList<>();
        boolean spoken = true;
        for (VolumeIndex.Entry s : ranged) {
            if (!spoken || run.isCut()) {
                whole.add(s.path());
                continue;
            }
            try {
                spoken = fetch(s);
                if (spoken) {
                    files++;
                } else {
                    whole.add(s.path());
                }
            } catch (IOException | RuntimeException e) {
                whole.add(s.path());   // tar sends it whole and replaces what was half written
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                run.cut();
                whole.add(s.path());
            }
        }
        return whole;
    }

    /** One file by range; false when the source has no range endpoint (an older agent). */
    private boolean fetch(VolumeIndex.Entry s) throws IOException, InterruptedException {
        Path file = folder.resolve(s.path());
        HashCache.Key was = HashCache.Key.of(file);
        ShaStates.Kept before = shas.get(file, was);
        long size = was.size();
        int block = BlockDelta.blockFor(Math.max(size, s.size()));
        long[] cached = kept.get(file, block);
        long[] hashes = cached != null ? cached : BlockHashes.of(file, block, size);
        String body = mesh.model.DeclarationJson.MAPPER.writeValueAsString(new RangeRequest(s.path(), block, size, hashes));
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/ranges" + query)).timeout(VolumeCopy.HEAD)
                .header("Authorization", "Bearer " + ticket).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<InputStream> answer = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream raw = answer.body()) {
            if (List.of(401, 403, 404, 405).contains(answer.statusCode())) {   // an agent from before ranges: its guard or its router
                return false;
            }
            if (answer.statusCode() != 200) {
                throw new IOException("the source refused the ranges of " + s.path() + " (" + answer.statusCode() + ")");
            }
            run.onCut(() -> quietlyClose(raw));
            Watchdog dog = new Watchdog(raw);
            lowest = Long.MAX_VALUE;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                hashes = apply(new DataInputStream(new BufferedInputStream(raw, 64 * 1024)), ch, block, hashes, dog::pet);
            } finally {
                dog.stop();
            }
        }
        Files.setLastModifiedTime(file, FileTime.fromMillis(s.mtime()));
        kept.put(file, block, hashes);
        hashWhole(file, before);
        return true;
    }

    /**
     * Takes the whole sha256 of {@code file}, just written from {@link #lowest} on, up again from its checkpoints
     * ({@code before}: those kept for it as it was before; null: from 0) and keeps it for the verify ({@link HashCache})
     * with the new checkpoints, so the verify after the fence reads nothing of it again. Only this agent writes a take's
     * copy, so what it hashed is what it wrote; a failure only costs the verify a whole read.
     */
    private void hashWhole(Path file, ShaStates.Kept before) {
        try {
            HashCache.Key now = HashCache.Key.of(file);
            ShaStates.Hashed h = ShaStates.rehash(file, now.size(), before, Math.min(lowest, now.size()), now);
            if (HashCache.Key.of(file).equals(now)) {
                shas.put(file, h.kept());
                sums.written(now, h.sha256());
                LOG.infof("copy of %s by range: its sha256 for the verify taken up again, %d of its %d bytes read", file,
                        h.read(), now.size());
                return;
            }
        } catch (IOException | RuntimeException e) {
            // the verify hashes it whole
        }
        shas.drop(file);
    }

    /**
     * Writes the frames of {@code in} into {@code ch} until the end frame, then cuts it to the size that frame says;
     * the hashes of the copy's blocks as it now is ({@code hashes}: as it was).
     */
    long[] apply(DataInputStream in, FileChannel ch, int block, long[] hashes, Runnable framed) throws IOException {
        byte[] buffer = new byte[block];
        long[] now = hashes;
        while (true) {
            RangeFrames.Frame f = RangeFrames.read(in, buffer, block);
            framed.run();
            if (f.end()) {
                ch.truncate(f.offset());
                lowest = Math.min(lowest, f.offset());
                return java.util.Arrays.copyOf(now, BlockDelta.blocks(f.offset(), block));
            }
            if (!f.alive()) {
                ByteBuffer b = ByteBuffer.wrap(f.bytes());
                long at = f.offset();
                while (b.hasRemaining()) {
                    at += ch.write(b, at);
                }
                bytes += f.bytes().length;
                lowest = Math.min(lowest, f.offset());
                int i = (int) (f.offset() / block);
                now = i < now.length ? now : java.util.Arrays.copyOf(now, i + 1);
                now[i] = BlockHashes.of(ByteBuffer.wrap(f.bytes()));
            }
            say();
        }
    }

    /** A progress line at most once a second, so the controller sees the bytes grow; a caller gone cuts the copy. */
    private void say() {
        if (System.nanoTime() - saidAt < 1_000_000_000L) {
            return;
        }
        saidAt = System.nanoTime();
        try {
            progress.accept(CopyProgress.running(bytes, files, 0));
        } catch (RuntimeException callerGone) {
            run.cut();
        }
    }

    private static void quietlyClose(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // closing is how a cut fetch stops reading
        }
    }

    /** Watchdog closes the answer when no frame came for the copy's stall window (the source sends one a second). */
    private static final class Watchdog {
        private volatile long last = System.nanoTime();
        private volatile boolean stopped;

        Watchdog(InputStream body) {
            Thread.ofVirtual().start(() -> {
                // true: the fetch ended; false: no frame for the window, the answer is closed (its read then fails)
                boolean ended = mesh.model.Poll.until(mesh.model.Poll.NO_LIMIT, java.time.Duration.ofSeconds(1),
                        () -> stopped || System.nanoTime() - last > VolumeCopy.NO_DATA.window().toNanos()) && stopped;
                if (!ended) {
                    quietlyClose(body);
                }
            });
        }

        void pet() {
            last = System.nanoTime();
        }

        void stop() {
            stopped = true;
        }
    }
}
