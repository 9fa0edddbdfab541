package mesh.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import mesh.host.process.LogFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * HostLogsCommand is {@code mesh host logs COMPONENT [--follow]}: the output of a process the host agent
 * supervises, read from the supervisor's log files ({@code <state-dir>/logs/COMPONENT.log} and its rotated
 * parts), so it needs no running agent.
 */
@Command(name = "logs",
        mixinStandardHelpOptions = true,
        description = {"Show the output (stdout and stderr) of a process this host supervises.",
            "  mesh host logs COMPONENT            its last lines (-n, default 100), oldest first",
            "  mesh host logs COMPONENT --follow   then every line it writes, until interrupted",
            "Reads the installed agent's settings, DIR/host.env (--config-dir DIR as given to 'mesh install', "
                    + "default /etc/mesh) when it exists; MESH_HOST_* in the environment wins over it; with neither, the state "
                    + "dir is /var/lib/mesh. Needs no running agent."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh host logs mesh-controller.serve",
            "  mesh host logs mesh-controller.serve --follow"})
public class HostLogsCommand implements Callable<Integer> {

    static final Duration POLL = Duration.ofMillis(200);

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "COMPONENT", description = "the component (a process of this node)")
    String component;

    @Option(names = {"-f", "--follow"}, description = "keep printing what it writes")
    boolean follow;

    @Option(names = {"-n", "--tail"}, paramLabel = "N", description = "how many of the last lines to show (default 100)")
    Integer tail;

    @Option(names = "--lines", paramLabel = "N", hidden = true, description = "the old name of --tail")
    Integer lines;

    /** How many of the last lines are shown when --tail is not given. */
    static final int TAIL = 100;

    @Mixin
    LocalSettingsOptions settings;

    @Mixin
    OutputOption format;

    final Output output = new Output();

    @Override
    public Integer call() throws InterruptedException {
        if (tail != null && lines != null) {
            throw new ParameterException(spec.commandLine(), "--tail is given twice (--lines is its old name)");
        }
        int last = tail != null ? tail : lines != null ? lines : TAIL;
        if (last < 0) {
            throw new ParameterException(spec.commandLine(), (tail != null ? "--tail" : "--lines") + ": must be 0 or more, got " + last);
        }
        LocalSettingsOptions.Settings local = settings.read(System.getenv());
        LogFiles logs = LogFiles.of(local.host().stateDir(), component, LogFiles.Limits.DEFAULT);
        if (logs.files().isEmpty()) {
            throw new VerbFailure("no log of component " + component + " in " + logs.current().getParent()
                    + " (" + local.stateDirFrom() + "): it is not a process this host runs, or it never started");
        }
        logs.lastLines(last).forEach(this::show);
        if (follow) {
            logs.follow(this::show, () -> !Thread.currentThread().isInterrupted(), POLL);
        }
        return ExitCodes.OK;
    }

    /** A line as it was written, or with {@code -o json} as {@code mesh logs -o json} prints a process's: stream "output", no time. */
    private void show(String line) {
        output.line(spec, format.json() ? json(component, line) : line);
    }

    static String json(String component, String line) {
        var o = mesh.model.DeclarationJson.MAPPER.createObjectNode();
        o.put("component", component);
        o.put("stream", "output");
        o.putNull("time");
        o.put("line", line);
        return o.toString();
    }
}
