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
 * {@link #SMALL} is not fetched ahead but streamed as it is written, so what is held stays below IN_FLIGHT × SMALL.
 * Written by hand: a bounded window over an ordered list is a few lines, no library's.
 */
final class BlobsAhead implements AutoCloseable {

    /** The largest file fetched ahead (into memory); larger ones are streamed. */
    static final long SMALL = 256 * 1024;
    /**
     * How many small files are fetched at once: as many as {@link BackupUpload#IN_FLIGHT}, within the five connections
     * to one registry that HttpURLConnection keeps alive (so none is opened per file). The registry answered 300 small
     * blobs to curl in 0.81–0.94 s four at a time, 0.74–0.79 s eight at a time, 1.68 s one at a time.
     */
    static final int IN_FLIGHT = BackupUpload.IN_FLIGHT;

    private final Iterator<VolumeManifest.Entry> next;
    private final Function<VolumeManifest.Entry, byte[]> fetch;
    private final Deque<Future<byte[]>> window = new ArrayDeque<>();
    private final ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("restore-ahead-", 0).factory());

    /** Starts fetching the small files among {@code entries} with {@code fetch} (whole content, or an exception). */
    BlobsAhead(List<VolumeManifest.Entry> entries, Function<VolumeManifest.Entry, byte[]> fetch) {
        this.next = entries.stream().filter(BlobsAhead::small).iterator();
        this.fetch = fetch;
        fill();
    }

    /** Whether {@code e} is one of the files fetched ahead: the caller takes those with {@link #take()}, in order. */
    static boolean small(VolumeManifest.Entry e) {
        return "file".equals(e.type()) && e.sha256() != null && e.size() <= SMALL;
    }

    /** The next small file's content (the one after the last taken, in the manifest's order); its fetch's failure. */
    byte[] take() {
        Future<byte[]> first = window.poll();
        if (first == null) {
            throw new IllegalStateException("no small file is left to take");
        }
        try {
            byte[] content = first.get();
            fill();   // after the wait: never more than IN_FLIGHT fetched at once
            return content;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new BackupBroken(String.valueOf(e.getCause().getMessage()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupBroken("interrupted while a file was fetched", e);
        }
    }

    private void fill() {
        while (window.size() < IN_FLIGHT && next.hasNext()) {
            VolumeManifest.Entry e = next.next();
            window.add(pool.submit(() -> fetch.apply(e)));
        }
    }

    /** Stops what is still being fetched (a restore that broke off). */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
