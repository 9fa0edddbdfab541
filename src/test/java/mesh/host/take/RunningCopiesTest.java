package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** RunningCopiesTest: a new copy of a volume cuts the one under way and waits for it to end; other volumes are left alone. */
class RunningCopiesTest {

    final RunningCopies copies = new RunningCopies();

    @Test
    void aNewCopyOfAVolumeCutsTheOneUnderWayAndWaitsForItToEnd() throws Exception {
        RunningCopies.Run old = copies.begin("tk", "bulk", "container");
        AtomicInteger cuts = new AtomicInteger();
        old.onCut(cuts::incrementAndGet);
        CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> copies.cutRunning("tk", "bulk", "container"));
        Thread.sleep(300);
        assertEquals(1, cuts.get(), "the old copy was told to stop");
        assertTrue(old.isCut());
        assertFalse(next.isDone(), "the new copy waits until the old one has ended");
        copies.end("tk", "bulk", "container", old);
        assertTrue(next.get(5, TimeUnit.SECONDS), "then it goes on");
        assertFalse(copies.running("tk", "bulk", "container"));
    }

    @Test
    void aCopyCutBeforeItSetItsStopIsStoppedAsSoonAsItDoes() throws Exception {
        RunningCopies.Run old = copies.begin("tk", "bulk", "container");
        CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> copies.cutRunning("tk", "bulk", "container"));
        Thread.sleep(200);
        AtomicInteger cuts = new AtomicInteger();
        old.onCut(cuts::incrementAndGet);
        assertEquals(1, cuts.get());
        copies.end("tk", "bulk", "container", old);
        assertTrue(next.get(5, TimeUnit.SECONDS));
    }

    @Test
    void otherVolumesAndModulesAreNotCut() {
        RunningCopies.Run bulk = copies.begin("tk", "bulk", "container");
        RunningCopies.Run other = copies.begin("web", "bulk", "container");
        RunningCopies.Run files = copies.begin("tk", "files", "container");
        RunningCopies.Run process = copies.begin("tk", "bulk", "process");
        assertFalse(bulk.isCut() || other.isCut() || files.isCut() || process.isCut());
        assertTrue(copies.running("tk", "bulk", "container"));
        copies.end("tk", "bulk", "container", bulk);
        assertFalse(copies.running("tk", "bulk", "container"));
        assertTrue(copies.running("web", "bulk", "container"), "ending one copy leaves the others recorded");
        assertTrue(copies.cutRunning("tk", "bulk", "container"), "nothing under way: nothing to wait for");
    }

    @Test
    void anEndedCopyIsNotCutAgainAndItsEndDoesNotForgetANewerOne() {
        RunningCopies.Run old = copies.begin("tk", "bulk", "container");
        copies.end("tk", "bulk", "container", old);
        RunningCopies.Run newer = copies.begin("tk", "bulk", "container");
        assertFalse(old.isCut(), "an ended copy is no longer under way");
        copies.end("tk", "bulk", "container", old);
        assertTrue(copies.running("tk", "bulk", "container"), "a late end of the old copy leaves the newer one recorded");
        assertFalse(newer.isCut());
    }
}
