package mesh.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Build is which mesh a program is: its version and the commit it was built from (12 hex digits; null when
 * it was built outside git, e.g. from an exported tree), and its wire level: which controllers and agents it
 * speaks to ({@link WireRule}; null from a build from before levels, which counts as {@link #FIRST_WIRE}).
 * Agents and the controller report theirs, so an operator sees a fleet that runs more than one build
 * ({@code mesh node list}, {@code mesh status}).
 */
public record Build(String version, String commit, Integer wire) {

    /** The level of every build from before levels were reported. */
    public static final int FIRST_WIRE = 1;

    private static final Build CURRENT = read();

    /** The build of this program, as Maven filtered it into {@code mesh-version.properties}. */
    public static Build current() {
        return CURRENT;
    }

    /** A build as a party from before levels reports it: no wire level. */
    public Build(String version, String commit) {
        this(version, commit, null);
    }

    /** Its wire level; {@link #FIRST_WIRE} for a build from before levels. */
    public int wireLevel() {
        return wire == null ? FIRST_WIRE : wire;
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
        String wire = props.getProperty("wire", "");
        return new Build(props.getProperty("version", "unknown"), commit.matches("[0-9a-f]{7,40}") ? commit : null,
                wire.matches("[1-9][0-9]{0,3}") ? Integer.valueOf(wire) : null);
    }
}
