package mesh.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateSealTest {

    private static final char[] PASSPHRASE = "correct horse battery staple".toCharArray();
    private static final Instant MADE = Instant.parse("2026-12-06T01:00:00Z");
    /** A cheap cost so the tests run fast; the format carries whatever cost the seat chose. */
    private static final RecoveryKey KEY = RecoveryKey.derive(PASSPHRASE, new RecoveryKey.Kdf(Entropy.bytes(16), 64, 1, 1));

    private static byte[] artifact(String secret) {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        parts.put("keys/secrets.key", secret.getBytes(StandardCharsets.UTF_8));
        parts.put("store/table/nodes", "COPY nodes FROM stdin;\n".getBytes(StandardCharsets.UTF_8));
        return StateSeal.seal(KEY, "0.1.0 (4f70c7e1a2b3)", 3, "mesh-1", MADE, new StateContent(parts).encode());
    }

    private static StateSeal.Reason refusal(byte[] artifact, char[] passphrase, int wire) {
        return assertThrows(StateSeal.Refused.class, () -> StateSeal.open(artifact, passphrase, wire)).reason();
    }

    @Test
    void anArtifactOpensWithItsPassphraseAndShowsNoSecret() {
        byte[] a = artifact("the-secrets-key");
        assertFalse(new String(a, StandardCharsets.ISO_8859_1).contains("the-secrets-key"));
        assertFalse(new String(a, StandardCharsets.ISO_8859_1).contains("correct horse"));
        StateSeal.Opened opened = StateSeal.open(a, PASSPHRASE, 3);
        assertEquals("mesh-1", opened.header().mesh());
        assertEquals(MADE, opened.header().made());
        assertEquals(StateSeal.FORMAT, opened.header().format());
        StateContent content = StateContent.decode(opened.content());
        assertArrayEquals("the-secrets-key".getBytes(StandardCharsets.UTF_8), content.parts().get("keys/secrets.key"));
        assertEquals(2, content.parts().size());
        assertEquals("mesh-1", StateSeal.header(a).mesh(), "the header reads without the passphrase");
    }

    @Test
    void aWrongPassphraseIsNamedAsSuch() {
        assertEquals(StateSeal.Reason.WRONG_PASSPHRASE, refusal(artifact("k"), "correct horse battery stapler".toCharArray(), 3));
    }

    @Test
    void aTruncatedArtifactIsNamedAtAnyCut() {
        byte[] a = artifact("k");
        for (int cut : new int[] {12, 40, a.length / 2, a.length - 1}) {
            assertEquals(StateSeal.Reason.TRUNCATED, refusal(Arrays.copyOf(a, cut), PASSPHRASE, 3), "cut at " + cut);
        }
    }

    @Test
    void anAlteredByteInTheSealedPartOrTheHeaderIsNamed() {
        byte[] a = artifact("k");
        byte[] body = a.clone();
        body[body.length - 20] ^= 1;
        assertEquals(StateSeal.Reason.ALTERED, refusal(body, PASSPHRASE, 3));
        String text = new String(a, StandardCharsets.ISO_8859_1).replace("mesh=mesh-1", "mesh=mesh-2");
        assertEquals(StateSeal.Reason.ALTERED, refusal(text.getBytes(StandardCharsets.ISO_8859_1), PASSPHRASE, 3));
        byte[] longer = Arrays.copyOf(a, a.length + 3);
        assertEquals(StateSeal.Reason.ALTERED, refusal(longer, PASSPHRASE, 3));
    }

    @Test
    void aNewerFormatOrBuildIsRefusedBeforeAnyKeyIsDerived() {
        String text = new String(artifact("k"), StandardCharsets.ISO_8859_1);
        byte[] newer = rewriteHeader(text, "format=1", "format=2");
        StateSeal.Refused e = assertThrows(StateSeal.Refused.class, () -> StateSeal.open(newer, new char[0], 3));
        assertEquals(StateSeal.Reason.NEWER_FORMAT, e.reason());
        assertTrue(e.getMessage().contains("0.1.0 (4f70c7e1a2b3)"), e.getMessage());
        assertEquals(StateSeal.Reason.NEWER_BUILD, refusal(artifact("k"), new char[0], 2));
    }

    @Test
    void somethingElseIsNotAStateBackup() {
        assertEquals(StateSeal.Reason.NOT_A_STATE_BACKUP, refusal("PGDMP...".getBytes(StandardCharsets.US_ASCII), PASSPHRASE, 3));
        assertEquals(StateSeal.Reason.NOT_A_STATE_BACKUP, refusal(new byte[0], PASSPHRASE, 3));
    }

    @Test
    void theKeyFileKeepsTheDerivedKeyNeverThePassphraseAndSealsWhatThePassphraseOpens(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("install").resolve(RecoveryKey.FILE);
        KEY.write(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(Files.readString(file).contains("correct horse"));
        RecoveryKey read = RecoveryKey.read(file);
        byte[] a = StateSeal.seal(read, "0.1.0", 1, "m", MADE, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, StateSeal.open(a, PASSPHRASE, 1).content());
    }

    @Test
    void aShortPassphraseIsRefusedAndAFilesLineEndIsNotPartOfIt() {
        assertTrue(RecoveryKey.problem("short".toCharArray()).contains("12"));
        assertEquals(null, RecoveryKey.problem(PASSPHRASE));
        assertArrayEquals(PASSPHRASE, RecoveryKey.passphraseIn("correct horse battery staple\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void cutContentIsNamed() {
        byte[] content = new StateContent(Map.of("a", new byte[10])).encode();
        assertThrows(IllegalArgumentException.class, () -> StateContent.decode(Arrays.copyOf(content, content.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> StateContent.decode(new byte[] {1}));
    }

    /** The artifact with a header field changed and its length kept in step (the seal then no longer authenticates). */
    private static byte[] rewriteHeader(String text, String from, String to) {
        byte[] a = text.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
        int len = ByteBuffer.wrap(a, 10, 4).getInt() + to.length() - from.length();
        ByteBuffer.wrap(a, 10, 4).putInt(len);
        return a;
    }
}
