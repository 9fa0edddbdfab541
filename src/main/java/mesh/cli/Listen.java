package mesh.cli;

/** Listen is a HOST:PORT pair as written in MESH_*_LISTEN. */
public record Listen(String host, int port) {

    public static Listen parse(String text, String source) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException(source + " must be HOST:PORT, got '" + text + "'");
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return new Listen(text.substring(0, colon), port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + " has no valid port in '" + text + "'");
        }
    }
}
