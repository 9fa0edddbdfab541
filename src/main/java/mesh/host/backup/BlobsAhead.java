package mesh.host.backup;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import mesh.model.VolumeManifest;

/**
 * BlobsAhead fetches a restore's small files a few at a time ahead of the tar stream that writes them, in the
 * manifest's order. Each blob is a request to the registry, so a volume of many small files is bound by their round
 * trips, not by bytes: 1,000 files of a few bytes took 8 s one after the other (docs/benchmarks.md, "scripts/bench/
 * backup"); {@link #IN_FLIGHT} at once hide them, as {@link BackupUpload} does on the way in. A file larger than
 * {@link #SMALL} is not fetched ahead but streamed as it is written, so what is held stays within (IN_FLIGHT + 1) × SMALL.
 * Written by hand: a bounded window over an ordered list is a few lines, no library's.
 */
final class BlobsAhead implements AutoCloseable {

    /** The largest file fetched ahead (into memory); larger ones are streamed. */
    static final long SMALL = 256 * 1024;
    /**
     * How many small files are fetched at once: as many as {@link BackupUpload#IN_FLIGHT} sends. The registry
     * answered 300 small blobs to curl in 1.68 s one at a time, 0.81–0.94 s four at a time, 0.74–0.79 s eight at a
     * time. (Each fetch is a connection of its own: HttpRegistry disconnects after every exchange.)
     */
    static final int IN_FLIGHT = BackupUpload.IN_FLIGHT;

    /** Fetch is one small file's fetch under way, and the entry it is for. */
    private record Fetch(VolumeManifest.Entry entry, Future<byte[]> content) {
    }

    private final Iterator<VolumeManifest.Entry> next;
    private final Function<VolumeManifest.Entry, byte[]> fetch;
    private final Deque<Fetch> window = new ArrayDeque<>();
    private final ExecutorService pool = Executors.newThreadPerTaskExecutor(RegistryThreads.named("restore-ahead-"));

    /** Starts fetching the small files among {@code entries} with {@code fetch} (whole content, or an exception). */
    BlobsAhead(List<VolumeManifest.Entry> entries, Function<VolumeManifest.Entry, byte[]> fetch) {
        this.next = entries.stream().filter(BlobsAhead::small).iterator();
        this.fetch = fetch;
        fill();
    }

    /** Whether {@code e} is one of the files fetched ahead: the caller takes those with {@link #take}, in order. */
    static boolean small(VolumeManifest.Entry e) {
        return "file".equals(e.type()) && e.sha256() != null && e.size() <= SMALL;
    }

    /**
     * The content of {@code e}, the next small file in the manifest's order (another is a caller's mistake, refused);
     * its fetch's failure as the fetch threw it.
     */
    byte[] take(VolumeManifest.Entry e) {
        Fetch first = window.poll();
        if (first == null || first.entry() != e) {
            throw new IllegalStateException("file " + e.path() + " is not the next small file fetched ahead ("
                    + (first == null ? "none is left" : first.entry().path()) + ")");
        }
        try {
            byte[] content = first.content().get();
            fill();   // after the wait: never more than IN_FLIGHT fetched at once
            return content;
        } catch (ExecutionException x) {
            if (x.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (x.getCause() instanceof Error r) {
                throw r;
            }
            throw new BackupBroken("file " + e.path() + ": " + x.getCause().getMessage(), x.getCause());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted while file " + e.path() + " was fetched", x);
        }
    }

    private void fill() {
        while (window.size() < IN_FLIGHT && next.hasNext()) {
            VolumeManifest.Entry e = next.next();
            window.add(new Fetch(e, pool.submit(() -> fetch.apply(e))));
        }
    }

    /** Stops what is still being fetched (a restore that broke off). */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
