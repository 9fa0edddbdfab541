package mesh.cli;

import java.time.Instant;
import java.util.concurrent.Callable;
import mesh.model.InvalidInput;
import mesh.plan.LogChoice;
import mesh.plan.LogQuery;
import mesh.wire.LinePublisher;
import mesh.wire.LogLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * LogsCommand is {@code mesh logs MODULE[/COMPONENT]}: the output of a module's components from the node it is
 * taken on, through the controller (docs/cli.md, "mesh logs"). Each line is printed as it comes; several
 * components' lines carry their component in front. The verb fails (exit 1) when a stream broke off, or when
 * the controller sent nothing for {@link LinePublisher#SILENCE} (it sends a keep-alive every
 * {@link LinePublisher#KEEP_ALIVE}).
 */
@Command(name = "logs", mixinStandardHelpOptions = true,
        description = {"Show the output of a module's components, from the node it runs on.", "Both stdout and stderr are shown.",
            "  mesh logs MODULE                all its components, each line after 'COMPONENT | '",
            "  mesh logs MODULE/COMPONENT      one (COMPONENT as in the manifest, or the part after 'MODULE.')",
            "--follow keeps printing what they write, until the copy followed is replaced or removed (a push that "
                    + "changed it: run 'mesh logs' again for the new one), or until interrupted.",
            "-o json: one JSON object per line, {\"component\", \"stream\", \"time\", \"line\"}; a process's lines "
                    + "carry no time (its stdout and stderr go to one file: stream 'output'), so --since leaves out only its "
                    + "rotated log files last written before then.",
            "Exit 0 when the output ended (or the follow ended as its copy did); 1 when a module or component is "
                    + "unknown, the module runs nowhere, or a stream broke off (the message says which and why)."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh logs searxng",
            "  mesh logs searxng/web --follow"})
public class LogsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(index = "0", paramLabel = "MODULE[/COMPONENT]", description = "the module, or one of its components")
    String target;

    @Option(names = {"-f", "--follow"}, description = "keep printing what they write")
    boolean follow;

    @Option(names = "--since", paramLabel = "D", description = "only lines from D on: an instant (2026-12-01T10:00:00Z) or a duration back (90s, 5m, 2h, 1d)")
    String since;

    @Option(names = {"-n", "--tail"}, paramLabel = "N", description = "only the last N lines of each component (0 to " + LogQuery.MOST_TAIL + "; default: all that are kept)")
    Integer tail;

    @Override
    public Integer call() {
        int slash = target.indexOf('/');
        String module = slash < 0 ? target : target.substring(0, slash);
        String component = slash < 0 ? null : target.substring(slash + 1);
        if (module.isEmpty() || component != null && component.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "MODULE[/COMPONENT] expected, got '" + target + "'");
        }
        LogQuery query;
        try {
            query = new LogQuery(LogQuery.since(since, Instant.now()), tail, follow);
        } catch (InvalidInput e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        String q = query.query();
        String path = mesh.client.ControllerApi.logs(module, component, q);
        boolean[] several = {false};
        boolean[] broke = {false};
        ControllerClient.fromEnvironment().lines(path, LinePublisher.SILENCE, text -> {
            LogLine line = LogLine.read(text);
            if (line == null) {
                return;   // a keep-alive
            }
            if (line.components() != null) {
                several[0] = line.components().size() > 1;
            } else if (line.output()) {
                output.line(spec, format.json() ? json(line) : LogChoice.shown(line.component(), line.line(), several[0]));
            } else if (line.error() != null) {
                broke[0] = true;
                output.error(spec, "mesh: " + line.error());
            } else if (line.end() != null) {
                output.error(spec, "mesh: the follow ended: " + line.end());
            }
        });
        return broke[0] ? ExitCodes.FAILED : ExitCodes.OK;
    }

    /** The line as {@code -o json} prints it: always the four keys, a process's time null. */
    private static String json(LogLine line) {
        // a JSON node, not a map: the mapper leaves out nulls, and a process's "time" is null
        var o = mesh.model.DeclarationJson.MAPPER.createObjectNode();
        o.put("component", line.component());
        o.put("stream", line.stream());
        o.put("time", line.time());
        o.put("line", line.line());
        return o.toString();
    }
}
