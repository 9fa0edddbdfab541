package mesh.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * CliRun is one run of mesh as {@link MeshMain} runs a verb without a boot: the tree the arguments need, with its
 * streams captured; its exit code, stdout and stderr. The CLI tests that read what a verb says share it.
 */
record CliRun(int exit, String out, String err) {

    static CliRun of(String... args) {
        CommandLine cmd = MeshCommandLine.forArgs(CommandLine.defaultFactory(), args);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
