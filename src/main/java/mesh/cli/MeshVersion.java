package mesh.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** MeshVersion reads the version Maven filtered into mesh-version.properties at build time. */
public final class MeshVersion implements CommandLine.IVersionProvider {

    public static String version() {
        Properties props = new Properties();
        try (InputStream in = MeshVersion.class.getResourceAsStream("/mesh-version.properties")) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"mesh " + version()};
    }
}
