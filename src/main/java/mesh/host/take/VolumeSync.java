package mesh.host.take;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import mesh.model.Poll;

/**
 * VolumeSync makes what was written into a volume durable before anyone says it is there: one syncfs(2) of the
 * volume's file system ({@link TarStreams#syncCommand}: {@code sync --file-system}; Java has no syncfs). A copy
 * that a crash could still lose is no copy, and the writeback of a pre-copy's gigabytes, left to the kernel,
 * lands on the first fsync after the fence instead (the engine's, when it stops the module on the source:
 * seconds of downtime on a node that shares the disk). A take's copy and a restore both end with it.
 */
public final class VolumeSync {

    /** How long a writeback may take: minutes for gigabytes on a slow disk. */
    static final Duration DEADLINE = Duration.ofMinutes(10);
    private static final Duration BEAT = Duration.ofSeconds(1);

    private VolumeSync() {
    }

    /**
     * Syncs {@code folder}'s file system, calling {@code stillWanted} every second meanwhile (a heartbeat for the
     * caller's watchdog); when it answers false the sync is abandoned. Null when done; else why not.
     */
    public static String run(Path folder, String volume, BooleanSupplier stillWanted) throws IOException, InterruptedException {
        long began = System.nanoTime();
        Process sync = new ProcessBuilder(TarStreams.syncCommand(folder)).redirectErrorStream(true).start();
        CompletableFuture<String> said = TarStreams.tail(sync.getInputStream());
        // each ask waits itself, up to a beat, for the sync to end, so no pause between asks: true, it ended; false, cut
        Poll.Result<Boolean> ended = Poll.interruptibly(DEADLINE, Duration.ZERO,
                () -> sync.waitFor(BEAT.toMillis(), TimeUnit.MILLISECONDS) ? Poll.got(true)
                        : stillWanted.getAsBoolean() ? Poll.notYet("still writing") : Poll.got(false));
        if (!(ended instanceof Poll.Answered<Boolean> a && a.value())) {
            sync.destroyForcibly();
            return ended instanceof Poll.Answered ? "the copy of volume " + volume + " was cut while it was written to disk"
                    : "volume " + volume + " was copied but not written to disk within " + DEADLINE.toMinutes() + " min";
        }
        org.jboss.logging.Logger.getLogger("mesh.host").infof("volume %s written to disk (syncfs) in %.3f s", volume,
                (System.nanoTime() - began) / 1e9);
        return sync.exitValue() == 0 ? null
                : "volume " + volume + " was copied but could not be written to disk: " + said.join();
    }
}
