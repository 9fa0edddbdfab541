package mesh.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Build is which mesh a program is: its version and the commit it was built from (12 hex digits; null when
 * it was built outside git, e.g. from an exported tree). Agents and the controller report theirs, so an
 * operator sees a fleet that runs more than one build ({@code mesh node list}, {@code mesh status}).
 */
public record Build(String version, String commit) {

    private static final Build CURRENT = read();

    /** The build of this program, as Maven filtered it into {@code mesh-version.properties}. */
    public static Build current() {
        return CURRENT;
    }

    /** How operators read it: {@code 0.1.0 (4f70c7e1a2b3)}, or the version alone without a commit. */
    public String words() {
        return commit == null ? version : version + " (" + commit + ")";
    }

    private static Build read() {
        Properties props = new Properties();
        try (InputStream in = Build.class.getResourceAsStream("/mesh-version.properties")) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String commit = props.getProperty("commit", "");
        return new Build(props.getProperty("version", "unknown"), commit.matches("[0-9a-f]{7,40}") ? commit : null);
    }
}
