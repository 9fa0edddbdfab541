package mesh.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * EngineAddress is the rule for a Docker engine's address ({@code mesh install --engine},
 * {@code MESH_HOST_ENGINE}): {@code unix:///path/to/socket} or {@code tcp://host:port}. It is
 * checked before a Docker client is made, because docker-java, given a bare path such as
 * {@code docker.sock}, fails deep inside with a NullPointerException instead of naming the input.
 */
public final class EngineAddress {

    /** The forms accepted, for messages. */
    public static final String FORMS = "unix:///path/to/docker.sock or tcp://host:port";

    static final Pattern UNIX = Pattern.compile("unix://(/[^\\s?#]+)");
    static final Pattern TCP = Pattern.compile("tcp://([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\\[[0-9a-fA-F:.]+\\]):(\\d{1,5})/?");

    private EngineAddress() {
    }

    /** Why {@code engine} is not a Docker engine's address, or null when it is one. */
    public static String problem(String engine) {
        if (engine == null || engine.isBlank()) {
            return "a Docker engine's address is required: " + FORMS;
        }
        if (engine.startsWith("unix:")) {
            return UNIX.matcher(engine).matches() && !engine.endsWith("/") ? null
                    : "a unix socket is named unix:///absolute/path, got '" + engine + "'";
        }
        if (engine.startsWith("tcp:")) {
            Matcher m = TCP.matcher(engine);
            int port = m.matches() ? Integer.parseInt(m.group(3)) : 0;
            return port >= 1 && port <= 65535 ? null
                    : "a TCP engine is named tcp://host:port (port 1-65535), got '" + engine + "'";
        }
        return "not a Docker engine's address: '" + engine + "'; give " + FORMS;
    }
}
