package mesh.cli;

import mesh.model.OperationState;
import mesh.model.TakeStep;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import mesh.wire.ForgottenCopies;
import mesh.wire.TakeRequest;
import mesh.wire.TakeView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "take", mixinStandardHelpOptions = true,
        description = {"Move MODULE to NODE with its data, in a checked hand-off (docs/take.md).",
            "Steps: preflight; pre-copy: copy every volume agent to agent while the module runs, pass after pass, "
                    + "until little changes; fence the source (the module stops there, and its agent refuses to start it); "
                    + "copy what changed since the last pass; verify every file's manifest on both sides; start on NODE and wait until it runs, switch (the "
                    + "placement, MODULE.internal and its routes move to NODE at once), push (NODE, the source and the "
                    + "components that bind its names). Any failure before the switch deletes NODE's copy and starts the "
                    + "module on the source again. Take assigns: there is no need to assign MODULE to NODE first.",
            "With --stop-and-copy there is no pre-copy: the source is fenced first and the whole data copied while the "
                    + "module is stopped. The source keeps its copy of the data (the old copy) until 'mesh take --forget-old MODULE'.",
            "An interrupted take is carried on by running the same 'mesh take' again.",
            "Exit 0 when the module runs on NODE; 1 when the take failed, rolled back or waits."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh take bee searxng --dry-run",
            "      check the nodes and the room for the data, and say the steps",
            "  mesh take bee searxng",
            "      move searxng to bee with its data, copied while it runs",
            "  mesh take --back searxng",
            "      return it to the node the last take brought it from",
            "  mesh take --forget-old searxng",
            "      remove the old copies its takes left behind"})
public class TakeCommand implements Callable<Integer> {

    static final Duration POLL = Duration.ofMillis(500);
    /** How often a plain progress line is printed (a terminal's bar is redrawn at every poll). */
    static final Duration PLAIN_EVERY = Duration.ofSeconds(2);

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(paramLabel = "NODE MODULE", arity = "1..2", description = "the node to move to and the module (only MODULE with --back, --forget-old)")
    List<String> names;

    @Option(names = "--dry-run", description = "check (nodes answer, room for the data), say the steps, change nothing")
    boolean dryRun;

    @Option(names = "--back", description = "return MODULE to the node the last take brought it from (with the data written since)")
    boolean back;

    @Option(names = "--stop-and-copy", description = "copy the data only after the module stopped (no pre-copy while it runs)")
    boolean stopAndCopy;

    @Option(names = "--forget-old", description = "remove the copies of MODULE's data its takes left on their sources")
    boolean forgetOld;

    @Override
    public Integer call() {
        if (back && forgetOld) {
            throw new ParameterException(spec.commandLine(), "--back and --forget-old exclude each other");
        }
        boolean oneName = back || forgetOld;
        if (names.size() != (oneName ? 1 : 2)) {
            throw new ParameterException(spec.commandLine(), oneName ? "give only MODULE with " + (back ? "--back" : "--forget-old")
                    : "give NODE and MODULE: mesh take NODE MODULE");
        }
        if (forgetOld && dryRun) {
            throw new ParameterException(spec.commandLine(), "--forget-old has no --dry-run");
        }
        String module = names.get(names.size() - 1);
        ControllerClient controller = ControllerClient.fromEnvironment();
        if (forgetOld) {
            return forget(controller, module);
        }
        TakeView t = controller.api().take(
                new TakeRequest(oneName ? null : names.get(0), module, dryRun, back, stopAndCopy ? true : null));
        if (dryRun) {
            if (format.json()) {
                output.json(spec, t);
            } else {
                output.line(spec, TakeLines.head(t) + ": dry run, nothing changed; the steps:");
                t.steps().forEach(s -> output.line(spec, "  " + s));
                t.notes().forEach(n -> output.line(spec, "note: " + n));
            }
            return ExitCodes.OK;
        }
        TakeView end = follow(controller, t);
        if (format.json()) {
            output.json(spec, end);
        } else {
            output.line(spec, TakeLines.end(end));
        }
        return end.state() == OperationState.DONE ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** Follows the take until it ends, or waits with no runner, printing each step and the copy's progress. */
    private TakeView follow(ControllerClient controller, TakeView first) {
        boolean people = !format.json();
        boolean terminal = people && picocli.CommandLine.Help.Ansi.AUTO.enabled() && System.console() != null;
        if (people) {
            output.line(spec, TakeLines.head(first));
            first.notes().forEach(n -> output.line(spec, "note: " + n));
        }
        java.util.Set<String> copied = new java.util.HashSet<>();
        java.util.Map<String, Integer> passesSaid = new java.util.HashMap<>();
        var seen = new Object() {
            TakeStep step;
            long lastPlain;
        };
        // no deadline: the take ends in the controller, or waits there for 'mesh take' to carry it on
        return Follow.follow(first, () -> controller.api().take(first.module()), POLL, null, t -> {
            said(t, seen.step, people, terminal, copied, passesSaid);
            seen.step = t.step();
            if (people && t.copy() != null) {
                if (terminal) {
                    spec.commandLine().getOut().print("\r" + TakeLines.bar(t.copy(), 30));
                    spec.commandLine().getOut().flush();
                } else if (System.nanoTime() - seen.lastPlain > PLAIN_EVERY.toNanos()) {
                    output.line(spec, TakeLines.progress(t.copy()));
                    seen.lastPlain = System.nanoTime();
                }
            }
        }, t -> t.state() != OperationState.RUNNING || !t.active() && t != first,
                "the take goes on in the controller ('mesh status' shows it)").last();
    }

    /** Says what changed since {@code step}: the steps gone through, each volume's new passes, the volumes copied whole. */
    private void said(TakeView t, TakeStep step, boolean people, boolean terminal, java.util.Set<String> copied,
                      java.util.Map<String, Integer> passesSaid) {
        if (people && step != t.step()) {
            if (terminal && (step == TakeStep.COPY || step == TakeStep.PRE_COPY)) {
                output.line(spec, "");
            }
            for (String s : TakeLines.stepsSince(t, step, t.step())) {
                output.line(spec, "step " + s + (t.state() == OperationState.RUNNING && s.equals(t.step().word()) && t.problem() != null
                        ? " (again: " + t.problem() + ")" : ""));
            }
        }
        if (people) {
            for (TakeView.Volume v : t.volumes()) {
                int said = passesSaid.getOrDefault(v.name(), 0);
                for (int i = said; i < v.passes().size(); i++) {
                    output.line(spec, TakeLines.pass(v.name(), i + 1, v.passes().get(i)));
                }
                passesSaid.put(v.name(), v.passes().size());
            }
            t.volumes().stream().filter(v -> v.copied() && v.passes().isEmpty() && copied.add(v.name())).forEach(v -> output.line(spec,
                    "copied " + v.name() + ": " + mesh.plan.Bytes.human(v.bytes()) + ", " + v.files() + " files"));
        }
    }

    private int forget(ControllerClient controller, String module) {
        ForgottenCopies f = controller.api().forgetOldCopies(module);
        if (format.json()) {
            output.json(spec, f);
        } else if (f.removed().isEmpty()) {
            output.line(spec, "module " + module + " has no old copy apart from the data it runs on; nothing removed");
        } else {
            f.removed().forEach(c -> output.line(spec, "removed the old copy of " + module + " on " + c.node()
                    + " left by the take at epoch " + c.epoch() + ": volumes " + String.join(", ", c.volumes())));
        }
        return ExitCodes.OK;
    }
}
