package mesh.testbed;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * MeshRanges hands out the ranges of test-bed nodes an {@link InstalledMesh} runs on, ten nodes each, so that at most
 * three lines of work share the machine's two cores. Two ranges from the start: nK+10.. and nK+20.. (K is
 * {@code -Dmesh.testbed.first}, 1 unless given), beside the main line (the classes not marked {@link InstalledMeshTest},
 * one after the other on nK..). When the main line is done ({@link MainLine} tells), its nodes nK.. become a third
 * range: the main line's line of work is then an installed mesh's, and the classes still waiting for a range stop
 * waiting for one of two.
 */
public final class MeshRanges {

    /** The suite's ranges, which every raise takes from. */
    static final MeshRanges SUITE = new MeshRanges(Integer.getInteger("mesh.testbed.first", 1));

    private final int first;
    private final BlockingQueue<Integer> free;
    private final AtomicBoolean mainLineDone = new AtomicBoolean();

    MeshRanges(int first) {
        this.first = first;
        this.free = new ArrayBlockingQueue<>(3, true, List.of(first + 10, first + 20));
    }

    /** Waits up to {@code limit} for a free range; the number of its first test-bed node, or null when none came. */
    Integer take(Duration limit) throws InterruptedException {
        return free.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Gives a range back (its mesh is closed). */
    void give(int range) {
        free.add(range);
    }

    /** The main line is done: its nodes nK.. are a range from now on (once, however often it is told). */
    void mainLineDone() {
        if (mainLineDone.compareAndSet(false, true)) {
            free.add(first);
            System.out.printf("InstalledMesh: the main line is done: n%d.. is a third range for installed meshes%n", first);
        }
    }
}
