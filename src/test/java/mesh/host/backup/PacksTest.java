package mesh.host.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import mesh.bundle.Digest;
import mesh.model.VolumeManifest;
import org.junit.jupiter.api.Test;

/** PacksTest: which small contents travel together, and that a change moves few packs. */
class PacksTest {

    /** {@code n} contents of random sizes up to {@code most} bytes, each with the sha256 of its index. */
    static List<Packs.Content> contents(int n, int most, long seed) {
        Random random = new Random(seed);
        List<Packs.Content> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(new Packs.Content(Digest.of(("content " + seed + " " + i).getBytes()).hex(), random.nextInt(most + 1)));
        }
        return all;
    }

    static long bytes(List<Packs.Content> pack) {
        return pack.stream().mapToLong(Packs.Content::size).sum();
    }

    @Test
    void everyContentIsInOnePackInOrderAndNoPackIsOverItsMost() {
        List<Packs.Content> all = contents(3000, (int) BlobsAhead.SMALL, 1);
        List<List<Packs.Content>> packs = Packs.cut(all);
        assertEquals(all, packs.stream().flatMap(List::stream).toList());
        for (int i = 0; i < packs.size(); i++) {
            List<Packs.Content> p = packs.get(i);
            assertTrue(bytes(p) <= Packs.MAX, "pack " + i + " holds " + bytes(p));
            boolean last = i == packs.size() - 1;
            boolean full = !last && bytes(p) + packs.get(i + 1).get(0).size() > Packs.MAX;
            assertTrue(last || full || bytes(p) >= Packs.MIN, "pack " + i + " was closed early: " + bytes(p));
        }
        assertTrue(packs.size() < all.size() / 3, packs.size() + " packs for " + all.size() + " contents");
        assertEquals(List.of(), Packs.cut(List.of()));
    }

    @Test
    void aFewThousandTinyFilesAreAFewPacks() {
        List<List<Packs.Content>> packs = Packs.cut(contents(1000, 16, 2));
        assertTrue(packs.size() <= 2, packs.size() + " packs");
    }

    @Test
    void aContentAddedOrRemovedInTheMiddleChangesAFewPacksNotAllAfterIt() {
        List<Packs.Content> before = contents(4000, 8 * 1024, 3);
        List<Packs.Content> added = new ArrayList<>(before);
        added.add(1000, new Packs.Content("ab".repeat(32), 5000));
        List<Packs.Content> removed = new ArrayList<>(before);
        removed.remove(2000);
        Set<String> keys = keys(Packs.cut(before));
        assertTrue(keys.size() > 20, keys.size() + " packs");
        for (List<Packs.Content> after : List.of(added, removed)) {
            Set<String> changed = keys(Packs.cut(after));
            changed.removeAll(keys);
            assertTrue(changed.size() <= 3, changed.size() + " of " + keys.size() + " packs changed");
        }
    }

    private static Set<String> keys(List<List<Packs.Content>> packs) {
        Set<String> keys = new HashSet<>();
        packs.forEach(p -> keys.add(Packs.key(p)));
        return keys;
    }

    @Test
    void aPacksNameIsItsContentsHashesAndSizesInOrder() {
        Packs.Content a = new Packs.Content("a".repeat(64), 3);
        Packs.Content b = new Packs.Content("b".repeat(64), 5);
        assertEquals(Packs.key(List.of(a, b)), Packs.key(List.of(new Packs.Content("a".repeat(64), 3), b)));
        assertNotEquals(Packs.key(List.of(a, b)), Packs.key(List.of(b, a)));
        assertNotEquals(Packs.key(List.of(a, b)), Packs.key(List.of(a, new Packs.Content("b".repeat(64), 6))));
        assertEquals(List.of(new BackupArtifact.Part(a.sha256(), 0, 3), new BackupArtifact.Part(b.sha256(), 3, 5)),
                Packs.parts(List.of(a, b)));
    }

    @Test
    void theContentsArePackedInTheOrderOfTheirFirstFileAndLargeFilesKeepTheirOwnBlob() {
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        String c = "c".repeat(64);
        List<VolumeManifest.Entry> one = List.of(BackupArtifactTest.file("x", b, 2), BackupArtifactTest.file("y", a, 1),
                BackupArtifactTest.file("z", c, BlobsAhead.SMALL + 1));
        List<VolumeManifest.Entry> two = List.of(BackupArtifactTest.file("a", a, 1),
                new VolumeManifest.Entry("d", "dir", 0, "0755", 0, 0, null, null, Map.of()));
        assertEquals(List.of(new Packs.Content(b, 2), new Packs.Content(a, 1)), Packs.contents(List.of(one, two)));
    }
}
