package mesh.cli;

import mesh.model.OperationState;
import mesh.model.TakeStep;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import mesh.plan.Bytes;
import mesh.wire.RestoreRequest;
import mesh.wire.RestoreView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Bring MODULE back from a backup onto node NODE, in a checked hand-off.", "Like 'mesh take', it fences the module where it ran, writes the data on NODE, checks it and only then switches (docs/backup.md).",
            "The backup is ID, or the module's newest backup that is done. NODE (--to) must be another node than the one "
                    + "the module runs on: restore it there, then 'mesh take' brings it back with that data if you want it "
                    + "where it was. Uses MESH_CONTROLLER and MESH_TOKEN.",
            "A restore away from a node that does not answer is refused: that node may be only cut off from the controller, "
                    + "the module still running there, and a restore would run it twice. When it is down (powered off, crashed, "
                    + "its disk lost), say so with --down NODE: its copy is then marked lost and fenced there the moment its "
                    + "agent answers again, so it never starts there again.",
            "Steps: preflight (NODE answers, has the images), fence the node the module ran on (stopped, its data "
                    + "kept as an old copy) or, when that node does not answer and was said down, mark its copy lost, restore (NODE writes every volume from the registry and "
                    + "checks every file against the backup's manifest), start on NODE and wait until it runs, switch (the "
                    + "placement, MODULE.internal and its routes move to NODE), push (exactly the components that bind its "
                    + "names are replaced). A failure before the switch deletes NODE's copy and starts the module where it ran.",
            "Exit 0 when the module runs on NODE with the backup's data; 1 when it failed or rolled back."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh backup list searxng",
            "      the backups to choose from",
            "  mesh restore searxng --to bee --dry-run",
            "  mesh restore searxng 12 --to bee",
            "      searxng runs on bee with backup 12's data; its old copy stays on the node it ran on",
            "  mesh take ace searxng",
            "      then, if wanted, move it back to ace with that data",
            "  mesh restore searxng --to bee --down ace",
            "      searxng's node ace is down: its copy is marked lost, fenced when ace answers again"})
public class RestoreCommand implements Callable<Integer> {

    static final Duration POLL = Duration.ofMillis(500);

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(index = "0", paramLabel = "MODULE", description = "the module to restore")
    String module;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ID", description = "the backup (mesh backup list); default: the newest that is done")
    Long backup;

    @Option(names = "--to", paramLabel = "NODE", description = "the node to restore it on: required, another node than the one it runs on (refused there)")
    String to;

    @Option(names = "--down", paramLabel = "NODE", description = "the node the module runs on is down (powered off, crashed, "
            + "its disk lost): if it does not answer, its copy is marked lost instead of fenced. Without it a restore away "
            + "from a node that does not answer is refused")
    String down;

    @Option(names = "--dry-run", description = "check (nodes answer, backup there), say the steps, change nothing")
    boolean dryRun;

    @Override
    public Integer call() {
        ControllerClient controller = ControllerClient.fromEnvironment();
        RestoreView r = controller.api().restore(new RestoreRequest(module, backup, to, down, dryRun ? true : null));
        if (dryRun) {
            if (format.json()) {
                output.json(spec, r);
            } else {
                output.line(spec, head(r) + ": dry run, nothing changed; the steps:");
                r.steps().forEach(s -> output.line(spec, "  " + s));
            }
            return ExitCodes.OK;
        }
        RestoreView end = follow(controller, r);
        if (format.json()) {
            output.json(spec, end);
        } else {
            output.line(spec, end.state() == OperationState.DONE ? "restored " + end.module() + " from backup " + end.backup() + ": it runs on "
                    + end.to() + (end.lost() ? "; its copy on " + end.from() + " is fenced there when that node answers again" : "")
                    : "restore of " + end.module() + " " + end.state() + ": " + end.error()
                    + (end.problem() != null ? " (" + end.problem() + ")" : ""));
        }
        return end.state() == OperationState.DONE ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /**
     * The steps a restore went through since {@code said} up to where it stands now (a poll every half second misses
     * the quick ones), in the order it takes them; a rollback's step is said as it is met.
     */
    static java.util.List<String> stepsSince(RestoreView r, TakeStep said) {
        java.util.List<TakeStep> path = new java.util.ArrayList<>(java.util.List.of(TakeStep.PREFLIGHT));
        if (r.from() != null) {
            path.add(r.lost() ? TakeStep.LOSE : TakeStep.FENCE);
        }
        path.addAll(java.util.List.of(TakeStep.RESTORE, TakeStep.START, TakeStep.SWITCH, TakeStep.PUSH));
        if (r.from() != null) {
            path.add(TakeStep.OLD_COPY);
        }
        int now = path.indexOf(r.step());
        if (r.step() == TakeStep.DONE) {
            now = path.size() - 1;
        } else if (now < 0) {
            return r.state() == OperationState.RUNNING ? java.util.List.of(r.step().word()) : java.util.List.of();
        } else if (r.state() != OperationState.RUNNING) {
            return java.util.List.of();
        }
        int from = said == null ? 0 : path.indexOf(said) + 1;
        return from < 0 || from > now ? java.util.List.of() : path.subList(from, now + 1).stream().map(TakeStep::word).toList();
    }

    private static String head(RestoreView r) {
        return "restore " + r.module() + " from backup " + r.backup() + " to " + r.to()
                + (r.from() == null ? " (it runs nowhere)" : " (it runs on " + r.from() + (r.lost() ? ", which does not answer)" : ")"));
    }

    private RestoreView follow(ControllerClient controller, RestoreView first) {
        boolean people = !format.json();
        if (people) {
            output.line(spec, head(first));
        }
        var seen = new Object() {
            TakeStep step;
            long lastPlain;
        };
        // no deadline: the restore ends in the controller, which gives each of its steps one
        return Follow.follow(first, () -> controller.api().restore(first.id()), POLL, null, r -> {
            if (people && seen.step != r.step()) {
                for (String s : stepsSince(r, seen.step)) {
                    output.line(spec, "step " + s + (s.equals(r.step().word()) && r.problem() != null ? " (again: " + r.problem() + ")" : ""));
                }
                seen.step = r.step();
            }
            if (people && r.progress() != null && System.nanoTime() - seen.lastPlain > BackupCommand.PLAIN_EVERY.toNanos()) {
                output.line(spec, "  " + (r.progress().volume() == null ? "" : r.progress().volume() + ": ")
                        + Bytes.human(r.progress().bytes() == null ? 0 : r.progress().bytes()) + " written, "
                        + (r.progress().files() == null ? 0 : r.progress().files()) + " entries");
                seen.lastPlain = System.nanoTime();
            }
        }, r -> r.state() != OperationState.RUNNING, "the restore goes on in the controller ('mesh status' shows it)").last();
    }
}
