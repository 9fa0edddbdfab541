package mesh.testbed;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * MeshRanges hands out the ranges of test-bed nodes an {@link InstalledMesh} runs on, ten nodes each. Three ranges
 * from the start: nK+10.., nK+20.. and nK+30.. (K is {@code -Dmesh.testbed.first}, 1 unless given; how many,
 * {@code -Dmesh.it.meshes}), beside the main line (the classes not marked {@link InstalledMeshTest}, one after the
 * other on nK..). When the main line is done ({@link MainLine} tells), its nodes nK.. become one range more: the main
 * line's line of work is then an installed mesh's. Three beside the main line, not two: with two, the machine's
 * two cores were a third idle during the ITs (vmstat, docs/testbed.md): an installed class spends much of its time
 * waiting on what it drives, not computing.
 */
public final class MeshRanges {

    /** The suite's ranges, which every raise takes from. */
    static final MeshRanges SUITE = new MeshRanges(Integer.getInteger("mesh.testbed.first", 1), Integer.getInteger("mesh.it.meshes", 3));

    private final int first;
    private final BlockingQueue<Integer> free;
    private final AtomicBoolean mainLineDone = new AtomicBoolean();

    /** {@code beside} ranges beside the main line, from nK+10 on; the main line's own once it is done. */
    MeshRanges(int first, int beside) {
        this.first = first;
        this.free = new ArrayBlockingQueue<>(beside + 1, true,
                java.util.stream.IntStream.rangeClosed(1, beside).mapToObj(i -> first + 10 * i).toList());
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
            System.out.printf("InstalledMesh: the main line is done: n%d.. is one range more for installed meshes%n", first);
        }
    }
}
