package mesh.cli;

/** ExitCodes names the exit codes of the CLI contract in one place (docs/cli.md). */
public final class ExitCodes {
    /** The verb did what was asked. */
    public static final int OK = 0;
    /** The verb failed; its message says why. */
    public static final int FAILED = 1;
    /** The command line itself was wrong (picocli's usage error). */
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
