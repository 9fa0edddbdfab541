package mesh.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BundleRefTest: how operators and manifests name bundles, and what is refused. */
class BundleRefTest {

    static final String HEX = "a".repeat(64);

    @ParameterizedTest
    @CsvSource({
        "mesh,                 mesh, latest, , mesh:latest",
        "mesh:0.1,             mesh, 0.1,    , mesh:0.1",
        "tools/mesh-cli:v1_2,  tools/mesh-cli, v1_2, , tools/mesh-cli:v1_2",
        "mesh@sha256:" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + ", mesh, , " + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                + ", mesh@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    })
    void parses(String text, String name, String tag, String hex, String shown) {
        BundleRef ref = BundleRef.parse(text);
        assertEquals(name, ref.name());
        assertEquals(tag, ref.tag());
        assertEquals(hex == null ? null : new Digest(hex), ref.digest());
        assertEquals(shown, ref.toString());
    }

    @Test
    void aTagAndADigestKeepBoth() {
        BundleRef ref = BundleRef.parse("mesh:1@sha256:" + HEX);
        assertEquals("1", ref.tag());
        assertEquals("sha256:" + HEX, ref.reference());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "Mesh:1|'Mesh:1': name 'Mesh' must be lowercase letters and digits, separated by '.', '_', '-' or '/'",
        "mesh:-x|'mesh:-x': tag '-x' must be letters, digits, '_', '.' or '-' (at most 128, not starting with '.' or '-')",
        "mesh@sha256:abc|'mesh@sha256:abc': the part after @ must be sha256:<64 lowercase hex>",
        "mesh@md5:" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "|'mesh@md5:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': the part after @ must be sha256:<64 lowercase hex>",
        "/mesh|'/mesh': name '/mesh' must be lowercase letters and digits, separated by '.', '_', '-' or '/'",
        "\" \"|a bundle reference is empty; expected NAME[:TAG] or NAME@sha256:<64 hex>",
    })
    void refuses(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> BundleRef.parse(text)).getMessage());
    }
}
