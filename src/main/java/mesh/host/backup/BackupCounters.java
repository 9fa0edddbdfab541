package mesh.host.backup;

import java.util.concurrent.atomic.AtomicLong;
import mesh.wire.BackupProgress;

/**
 * BackupCounters is how far a backup, restore or verify has come: the volume it is at, bytes and files read (or
 * written) and bytes sent to the registry. The work updates it; the agent's endpoint reads it once a second for a
 * progress line, so a long hash or a large file still gives the caller a line a second. {@link #cancel} (the caller
 * went away) makes the work stop at its next read.
 */
public final class BackupCounters {

    final AtomicLong bytes = new AtomicLong();
    final AtomicLong files = new AtomicLong();
    final AtomicLong sent = new AtomicLong();
    private volatile String volume;
    private volatile boolean cancelled;
    private long lastBytes;
    private long lastAt = System.nanoTime();

    void at(String volume) {
        this.volume = volume;
    }

    public void cancel() {
        cancelled = true;
    }

    /** Throws when the caller went away: the work stops rather than write or send for no one. */
    void check() {
        if (cancelled) {
            throw new BackupBroken("its caller went away; stopped");
        }
    }

    /** The line for now, with the rate since the last one. */
    public synchronized BackupProgress line() {
        long now = System.nanoTime();
        long b = bytes.get() + sent.get();
        long rate = (b - lastBytes) * 1_000_000_000L / Math.max(1, now - lastAt);
        lastBytes = b;
        lastAt = now;
        return BackupProgress.running(volume, bytes.get(), files.get(), sent.get(), rate);
    }

    /** An input stream that counts what is read into {@code counter} and stops when cancelled. */
    java.io.InputStream counted(java.io.InputStream in, AtomicLong counter) {
        return new java.io.FilterInputStream(in) {
            @Override
            public int read() throws java.io.IOException {
                check();
                int b = super.read();
                if (b >= 0) {
                    counter.incrementAndGet();
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws java.io.IOException {
                check();
                int n = super.read(buf, off, len);
                if (n > 0) {
                    counter.addAndGet(n);
                }
                return n;
            }
        };
    }
}
