package mesh.cli;

import java.io.PrintStream;

/**
 * VersionBeforeBoot answers a bare {@code mesh --version} (or {@code -V}) before Quarkus boots, with
 * the very lines picocli prints for it (the top command's version provider, {@link MeshVersion}).
 * Booting Quarkus for it costs about 0.5 s on a small machine (Vert.x, the REST layer, Jackson: ~5,000
 * classes) to print one line; measured in docs/benchmarks.md, "footprint". Anything else, even
 * {@code --version} with another word, goes to picocli as before.
 */
final class VersionBeforeBoot {

    private VersionBeforeBoot() {
    }

    /** Prints the version and returns true when the arguments are exactly {@code --version} or {@code -V}. */
    static boolean answered(String[] args, PrintStream out) {
        if (args.length != 1 || !(args[0].equals("--version") || args[0].equals("-V"))) {
            return false;
        }
        for (String line : new MeshVersion().getVersion()) {
            out.println(line);
        }
        out.flush();
        return true;
    }
}
