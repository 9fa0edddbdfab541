package mesh.host.take;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import mesh.model.VolumeManifest;
import mesh.model.VolumeManifest.Entry;
import org.junit.jupiter.api.Test;

class ManifestFormTest {

    static final Entry ROOT = new Entry(".", "dir", 0, "0755", 0, 0, null, null, Map.of());
    static final Entry FILE = new Entry("a/x.txt", "file", 3, "0640", 1000, 1000, null, "ab".repeat(32), Map.of("user.k", "dg=="));
    static final Entry LINK = new Entry("a/l", "link", 0, "0777", 0, 0, "x.txt", null, Map.of());

    @Test
    void theManifestIsSortedCountedAndDigestedWhateverTheOrder() {
        VolumeManifest m = ManifestForm.of("gitea", "data", List.of(FILE, LINK, ROOT));
        assertEquals(List.of(ROOT, LINK, FILE), m.entries());
        assertEquals(1, m.files());
        assertEquals(3, m.bytes());
        assertEquals(m.digest(), ManifestForm.of("gitea", "data", List.of(ROOT, LINK, FILE)).digest());
        assertTrue(m.digest().matches("sha256:[0-9a-f]{64}"), m.digest());
    }

    @Test
    void theCanonicalFormIsFixed() {
        assertEquals("\".\"\t\"dir\"\t0\t\"0755\"\t0\t0\tnull\tnull\t\n"
                + "\"a/l\"\t\"link\"\t0\t\"0777\"\t0\t0\t\"x.txt\"\tnull\t\n"
                + "\"a/x.txt\"\t\"file\"\t3\t\"0640\"\t1000\t1000\tnull\t\"" + "ab".repeat(32) + "\"\t\"user.k\"=\"dg==\"\n",
                ManifestForm.canonical(List.of(FILE, LINK, ROOT)));
        assertEquals("\"a\\u0009b\\u000a\\\"c\\\\\"", ManifestForm.quote("a\tb\n\"c\\"));
    }

    @Test
    void everyFieldChangesTheDigestAndTheDiffNamesThePathAndTheField() {
        List<Entry> source = List.of(ROOT, FILE, LINK);
        String digest = ManifestForm.digest(source);
        List<Entry> changed = List.of(
                new Entry("a/x.txt", "file", 3, "0640", 1000, 1000, null, "cd".repeat(32), FILE.xattrs()),
                new Entry("a/x.txt", "file", 3, "0644", 1000, 1000, null, FILE.sha256(), FILE.xattrs()),
                new Entry("a/x.txt", "file", 3, "0640", 0, 1000, null, FILE.sha256(), FILE.xattrs()),
                new Entry("a/x.txt", "file", 3, "0640", 1000, 1000, null, FILE.sha256(), Map.of()),
                new Entry("a/x.txt", "file", 4, "0640", 1000, 1000, null, FILE.sha256(), FILE.xattrs()));
        List<String> fields = List.of("sha256", "mode", "uid", "xattrs", "size");
        for (int k = 0; k < changed.size(); k++) {
            List<Entry> target = List.of(ROOT, changed.get(k), LINK);
            assertNotEquals(digest, ManifestForm.digest(target), fields.get(k));
            Optional<String> diff = ManifestForm.diff(source, target);
            assertTrue(diff.orElseThrow().startsWith("path a/x.txt: " + fields.get(k) + " differs"), diff.get());
        }
        assertEquals("path a/x.txt: sha256 differs (source abababababab…, target cdcdcdcdcdcd…)",
                ManifestForm.diff(source, List.of(ROOT, changed.get(0), LINK)).orElseThrow());
        assertEquals(Optional.empty(), ManifestForm.diff(source, List.of(LINK, ROOT, FILE)));
    }

    @Test
    void aMissingOrExtraPathIsNamedWithItsSide() {
        assertEquals("path a/l: only on the source", ManifestForm.diff(List.of(ROOT, LINK, FILE), List.of(ROOT, FILE)).orElseThrow());
        assertEquals("path a/l: only on the target", ManifestForm.diff(List.of(ROOT, FILE), List.of(ROOT, LINK, FILE)).orElseThrow());
        assertEquals("path a/x.txt: only on the target", ManifestForm.diff(List.of(ROOT), List.of(ROOT, FILE)).orElseThrow());
    }
}
