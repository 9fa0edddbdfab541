package mesh.trust;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * StateContent is what a state backup seals: named parts (the seat's key files under {@code keys/}, the store's rows under {@code store/}), kept in order.
 * Encoded as a first line {@code mesh-state-content 1}, then per part a line {@code NAME LENGTH} and its bytes.
 */
public record StateContent(Map<String, byte[]> parts) {

    private static final String FIRST = "mesh-state-content 1\n";

    public StateContent {
        for (String name : parts.keySet()) {
            if (!name.matches("[a-z0-9][a-z0-9._/-]{0,99}")) {
                throw new IllegalArgumentException("a state backup part named '" + name + "'");
            }
        }
        parts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parts));
    }

    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(FIRST.getBytes(StandardCharsets.US_ASCII));
        parts.forEach((name, bytes) -> {
            out.writeBytes((name + " " + bytes.length + "\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(bytes);
        });
        return out.toByteArray();
    }

    /** The content {@link #encode} wrote; an IllegalArgumentException when {@code bytes} is not one. */
    public static StateContent decode(byte[] bytes) {
        byte[] first = FIRST.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length < first.length || !Arrays.equals(bytes, 0, first.length, first, 0, first.length)) {
            throw new IllegalArgumentException("the sealed content is not a mesh state (no '" + FIRST.strip() + "')");
        }
        Map<String, byte[]> parts = new LinkedHashMap<>();
        int at = first.length;
        while (at < bytes.length) {
            int nl = at;
            while (nl < bytes.length && bytes[nl] != '\n') {
                nl++;
            }
            String[] line = new String(bytes, at, nl - at, StandardCharsets.US_ASCII).split(" ");
            int length = line.length == 2 && line[1].matches("[0-9]{1,10}") ? (int) Math.min(Long.parseLong(line[1]), Integer.MAX_VALUE) : -1;
            if (length < 0 || nl + 1 + (long) length > bytes.length) {
                throw new IllegalArgumentException("the sealed content's part at byte " + at + " is cut or unnamed");
            }
            parts.put(line[0], Arrays.copyOfRange(bytes, nl + 1, nl + 1 + length));
            at = nl + 1 + length;
        }
        return new StateContent(parts);
    }
}
