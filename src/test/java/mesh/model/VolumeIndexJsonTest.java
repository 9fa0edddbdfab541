package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * VolumeIndexJsonTest: an index entry says {@code shared} only when it is true, so an index without such a file reads
 * as before on an agent of an earlier build, and one with such a file is refused there (that agent would not send it).
 */
class VolumeIndexJsonTest {

    static final VolumeIndex.Entry PLAIN = new VolumeIndex.Entry("a", "file", 10, 1_700_000_000_000L, "0644", 1000, 1000, null);
    static final VolumeIndex.Entry SHARED = new VolumeIndex.Entry("b", "file", 10, 1_700_000_000_000L, "0644", 1000, 1000, null, true);

    @Test
    void sharedIsWrittenOnlyWhenTrueAndReadBack() throws Exception {
        String json = DeclarationJson.MAPPER.writeValueAsString(new VolumeIndex("data", 1L, List.of(PLAIN, SHARED)));
        assertEquals(1, json.split("\"shared\"", -1).length - 1, json);
        assertTrue(json.contains("\"shared\":true"), json);
        VolumeIndex back = DeclarationJson.MAPPER.readValue(json, VolumeIndex.class);
        assertFalse(back.entries().get(0).shared());
        assertTrue(back.entries().get(1).shared());
    }

    @Test
    void anEntryOfAnEarlierBuildReadsAsNotShared() throws Exception {
        String earlier = """
                {"entries":[{"gid":1000,"link":null,"mode":"0644","mtime":1700000000000,"path":"a","size":10,"type":"file","uid":1000}],
                 "now":1,"volume":"data"}""";
        assertEquals(PLAIN, DeclarationJson.MAPPER.readValue(earlier, VolumeIndex.class).entries().get(0));
    }

    @Test
    void aReaderThatKnowsNoSharedRefusesIt() {
        record EarlierEntry(String path, String type, long size, long mtime, String mode, int uid, int gid, String link) {
        }
        assertThrows(UnrecognizedPropertyException.class, () -> DeclarationJson.MAPPER.readValue(
                DeclarationJson.MAPPER.writeValueAsString(SHARED), EarlierEntry.class));
    }
}
