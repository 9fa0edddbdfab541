package mesh.cli;

import mesh.wire.Build;
import picocli.CommandLine;

/** MeshVersion prints this build: the version and the commit Maven filtered into mesh-version.properties. */
public final class MeshVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"mesh " + Build.current().words()};
    }
}
