package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mesh.model.VolumeManifest;
import mesh.model.VolumeManifest.Entry;
import org.junit.jupiter.api.Test;

/** TakeVerifyTest: matching manifests pass; each kind of difference is named with its path. */
class TakeVerifyTest {

    static final Entry ROOT = new Entry(".", "dir", 0, "0755", 0, 0, null, null, Map.of());
    static final Entry FILE = new Entry("a/b.txt", "file", 3, "0644", 1000, 1000, null, "aa", Map.of());
    static final Entry LINK = new Entry("a/l", "link", 0, "0777", 0, 0, "b.txt", null, Map.of());

    static VolumeManifest manifest(String digest, Entry... entries) {
        return new VolumeManifest("web", "data", entries.length, 3, digest, List.of(entries));
    }

    @Test
    void sameDigestsMatch() {
        assertNull(TakeVerify.difference(manifest("sha256:1", ROOT, FILE), manifest("sha256:1", ROOT, FILE)));
    }

    @Test
    void eachDifferenceNamesThePathAndTheField() {
        Map<Entry, String> cases = Map.of(
                new Entry("a/b.txt", "file", 4, "0644", 1000, 1000, null, "bb", Map.of()), "a/b.txt: size 3 on the source, 4 on the target",
                new Entry("a/b.txt", "file", 3, "0644", 1000, 1000, null, "bb", Map.of()),
                "a/b.txt: content differs (sha256 aa on the source, bb on the target)",
                new Entry("a/b.txt", "file", 3, "0600", 1000, 1000, null, "aa", Map.of()), "a/b.txt: mode 0644 on the source, 0600 on the target",
                new Entry("a/b.txt", "file", 3, "0644", 0, 0, null, "aa", Map.of()),
                "a/b.txt: owner 1000:1000 on the source, 0:0 on the target",
                new Entry("a/b.txt", "file", 3, "0644", 1000, 1000, null, "aa", Map.of("user.x", "1")),
                "a/b.txt: extended attributes differ");
        List<String> wrong = new ArrayList<>();
        cases.forEach((target, said) -> {
            String got = TakeVerify.difference(manifest("sha256:1", ROOT, FILE), manifest("sha256:2", ROOT, target));
            if (!("volume data: " + said).equals(got)) {
                wrong.add(said + " <> " + got);
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void aMissingOrAnExtraFileIsNamed() {
        assertEquals("volume data: a/l is missing on the target",
                TakeVerify.difference(manifest("1", ROOT, FILE, LINK), manifest("2", ROOT, FILE)));
        assertEquals("volume data: a/l is on the target but not on the source",
                TakeVerify.difference(manifest("1", ROOT, FILE), manifest("2", ROOT, FILE, LINK)));
        Entry moved = new Entry("a/l", "link", 0, "0777", 0, 0, "c.txt", null, Map.of());
        assertEquals("volume data: a/l: link target b.txt on the source, c.txt on the target",
                TakeVerify.difference(manifest("1", ROOT, LINK), manifest("2", ROOT, moved)));
    }

    @Test
    void digestsThatDifferOverEqualEntriesAreStillADifference() {
        assertEquals("volume data: the manifests' digests differ (1 on the source, 2 on the target) though every entry matches",
                TakeVerify.difference(manifest("1", ROOT), manifest("2", ROOT)));
    }
}
