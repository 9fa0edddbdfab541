package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * TakePreflight judges, purely, what a take's preflight found before anything is fenced: the images and
 * bundles of the module the target lacks even after trying to get them, and its free space beside the
 * size of the module's data on the source. Every problem is named in one refusal, so the operator fixes
 * them at once; a refused preflight fences nothing and the module runs where it ran.
 */
public final class TakePreflight {

    /** The data needs its size and a tenth: a file system is never filled to the last byte. */
    public static final double ROOM = 1.1;

    /**
     * Facts is what the preflight found.
     *
     * @param module         the module taken
     * @param source         where it runs (null: nowhere)
     * @param target         where it goes
     * @param missingImages  image to why the target lacks it (after a pull, unless a dry run)
     * @param missingBundles bundle to why the target lacks it (after a fetch, unless a dry run)
     * @param volumes        the module's volumes on the source, with their sizes
     * @param free           the free bytes where the copy lands on the target (the tighter of its engine's data
     *                       root and its state dir), or -1 when it was not asked (no data to copy)
     * @param freePath       where that is
     */
    public record Facts(String module, String source, String target, Map<String, String> missingImages,
                        Map<String, String> missingBundles, List<Take.Volume> volumes, long free, String freePath) {

        public Facts {
            missingImages = missingImages == null ? Map.of() : Map.copyOf(new TreeMap<>(missingImages));
            missingBundles = missingBundles == null ? Map.of() : Map.copyOf(new TreeMap<>(missingBundles));
            volumes = volumes == null ? List.of() : List.copyOf(volumes);
        }
    }

    private TakePreflight() {
    }

    /** The bytes the copy needs on the target: the volumes' sizes and a tenth. */
    public static long need(List<Take.Volume> volumes) {
        return (long) Math.ceil(volumes.stream().mapToLong(Take.Volume::bytes).sum() * ROOM);
    }

    /** Each thing that stops the take, in the order images, bundles, space; empty when it may go on. */
    public static List<String> problems(Facts f) {
        List<String> problems = new ArrayList<>();
        new TreeMap<>(f.missingImages()).forEach((image, why) -> problems.add("node " + f.target() + " lacks image " + image
                + " of module " + f.module() + (why == null ? "" : " (" + why + ")")));
        new TreeMap<>(f.missingBundles()).forEach((bundle, why) -> problems.add("node " + f.target() + " lacks bundle " + bundle
                + " of module " + f.module() + (why == null ? "" : " (" + why + ")")));
        long need = need(f.volumes());
        if (need > 0 && f.free() >= 0 && f.free() < need) {
            problems.add("node " + f.target() + " has " + Bytes.human(f.free()) + " free at " + f.freePath()
                    + ", and the module's data needs " + Bytes.human(need) + " (its size and a tenth)");
        }
        return List.copyOf(problems);
    }

    /** The refusal that ends the take, or null when the preflight found nothing against it. */
    public static String refusal(Facts f) {
        List<String> problems = problems(f);
        if (problems.isEmpty()) {
            return null;
        }
        return String.join("; ", problems) + "; nothing was fenced, " + f.module()
                + (f.source() == null ? " runs nowhere yet" : " runs on " + f.source() + " as it did");
    }
}
