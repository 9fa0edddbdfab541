package mesh.cli;

import mesh.model.BackupStep;
import mesh.model.OperationState;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import mesh.plan.Bytes;
import mesh.wire.BackupRequest;
import mesh.wire.BackupView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Back MODULE's data up into the mesh's registry (docs/backup.md).",
            "Uses MESH_CONTROLLER and MESH_TOKEN.",
            "Every volume of the module (or those its manifest's backup: volumes: names) is read on its node and "
                    + "sent straight to the registry as an OCI artifact: one blob per distinct file content, keyed by its "
                    + "sha256, so a second backup of unchanged data sends almost nothing.",
            "By default the module is stopped for "
                    + "the copy (its stop timeouts, as 'mesh take' stops it) and started again; when a component has a backup: "
                    + "command (a pg_dump into a volume), that command runs in its container and the module keeps running.",
            "A schedule (backup: {every: 24h, keep: 7} in the manifest) is run by the controller; the last result is "
                    + "in 'mesh status'.",
            "Without --wait the backup runs on in the controller and its number is printed.",
            "Exit 0 when the backup began (with --wait: when it is done); 1 when it was refused or failed."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh backup searxng --wait",
            "      back searxng's data up now and wait until it is done",
            "  mesh backup list searxng",
            "  mesh backup verify 12"},
        subcommands = {BackupListCommand.class, BackupVerifyCommand.class})
public class BackupCommand implements Callable<Integer> {

    static final Duration POLL = Duration.ofMillis(500);
    static final Duration PLAIN_EVERY = Duration.ofSeconds(2);

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Parameters(paramLabel = "MODULE", arity = "0..1", description = "the module to back up")
    String module;

    @Option(names = "--wait", description = "follow the backup until it ends, with its progress")
    boolean await;

    @Option(names = WaitTimeout.NAME, paramLabel = "DURATION", description = "how long --wait follows it, e.g. 30m or 2h"
            + " (a bare number is seconds; default: until it ends, at most 24h); the backup goes on after; only with --wait")
    Duration timeout;

    @Override
    public Integer call() {
        if (module == null) {
            throw new ParameterException(spec.commandLine(), "give the module: mesh backup MODULE (or mesh backup list, mesh backup verify ID)");
        }
        Duration waitFor = WaitTimeout.of(spec, timeout, null, await, null);
        ControllerClient controller = ControllerClient.fromEnvironment();
        BackupView b = controller.api().backup(new BackupRequest(module));
        ArtifactStoreNote.of(controller, b.registry(), "backup " + b.id() + " of " + b.module()).ifPresent(l -> output.error(spec, l));
        if (!await) {
            if (format.json()) {
                output.json(spec, b);
            } else {
                output.line(spec, "backup " + b.id() + " of " + b.module() + " begun on " + b.node() + (b.live()
                        ? " with its backup commands (the module keeps running)" : " (the module stops for the copy)")
                        + "; 'mesh backup list " + b.module() + "' shows it");
            }
            return ExitCodes.OK;
        }
        BackupView end = follow(controller, b, waitFor);
        if (format.json()) {
            output.json(spec, end);
        } else {
            output.line(spec, end(end));
        }
        return end.state() == OperationState.DONE ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** Follows the backup until it ends, or until {@code waitFor} (null: no end) has passed: then a failure saying it goes on. */
    private BackupView follow(ControllerClient controller, BackupView first, Duration waitFor) {
        boolean people = !format.json();
        if (people) {
            output.line(spec, "backup " + first.id() + " of " + first.module() + " on " + first.node() + " to " + first.registry()
                    + (first.live() ? " (the module keeps running: its backup commands make the copy)" : " (the module stops for the copy)"));
        }
        var seen = new Object() {
            BackupStep step;
            long lastPlain;
        };
        Follow.Followed<BackupView> f = Follow.follow(first, () -> controller.api().backup(first.id()), POLL, waitFor, b -> {
            if (people && seen.step != b.step()) {
                for (String s : stepsSince(b, seen.step)) {
                    output.line(spec, "step " + s + (s.equals(b.step().word()) && b.problem() != null ? " (again: " + b.problem() + ")" : ""));
                }
                seen.step = b.step();
            }
            if (people && b.progress() != null && System.nanoTime() - seen.lastPlain > PLAIN_EVERY.toNanos()) {
                output.line(spec, progress(b.progress()));
                seen.lastPlain = System.nanoTime();
            }
        }, b -> b.state() != OperationState.RUNNING, "the backup goes on in the controller ('mesh backup list' shows it)");
        if (f.ended()) {
            return f.last();
        }
        throw new VerbFailure(stillRunning(f.last(), waitFor));
    }

    /** The steps a backup went through since {@code said} up to where it stands (a poll misses the quick ones). */
    static List<String> stepsSince(BackupView b, BackupStep said) {
        List<BackupStep> path = b.live() ? List.of(BackupStep.COPY, BackupStep.RETAIN)
                : List.of(BackupStep.FENCE, BackupStep.COPY, BackupStep.UNFENCE, BackupStep.RETAIN);
        int now = b.step() == BackupStep.DONE ? path.size() - 1 : path.indexOf(b.step());
        if (now < 0) {
            return List.of();
        }
        if (b.state() == OperationState.FAILED) {
            return List.of();
        }
        int from = said == null ? 0 : path.indexOf(said) + 1;
        return from < 0 || from > now ? List.of() : path.subList(from, now + 1).stream().map(BackupStep::word).toList();
    }

    static String progress(mesh.wire.BackupProgress p) {
        return "  " + (p.volume() == null ? "" : p.volume() + ": ") + Bytes.human(p.bytes() == null ? 0 : p.bytes()) + " read, "
                + (p.files() == null ? 0 : p.files()) + " files, " + Bytes.human(p.sent() == null ? 0 : p.sent()) + " sent, "
                + Bytes.human(p.rate() == null ? 0 : p.rate()) + "/s";
    }

    /** What {@code backup --wait --timeout} says when the backup outlasted it: the backup itself goes on. */
    static String stillRunning(BackupView b, Duration waited) {
        return "backup " + b.id() + " of " + b.module() + " is still running after " + mesh.model.DurationText.words(waited)
                + (b.step() == null ? "" : " (step " + b.step() + ")") + "; it goes on in the controller: 'mesh backup list "
                + b.module() + "' shows it";
    }

    static String end(BackupView b) {
        if (b.state() == OperationState.DONE) {
            return "backup " + b.id() + " of " + b.module() + " done: " + Bytes.human(b.bytes()) + " in " + b.files() + " files, "
                    + Bytes.human(b.sent()) + " new sent to the registry; manifest " + b.manifest()
                    + (b.problem() != null ? "\nnote: " + b.problem() : "");
        }
        return "backup " + b.id() + " of " + b.module() + " " + b.state() + ": " + b.error();
    }

    /** One row of {@code mesh backup list}. */
    static List<String> row(BackupView b, Instant now) {
        return Arrays.asList(Long.toString(b.id()), b.module(), Times.human(b.startedAt(), now), b.state().word(),
                Bytes.human(b.bytes()), Bytes.human(b.sent()), b.manifest() == null ? "-" : shortDigest(b.manifest()),
                b.verifiedAt() == null ? "-" : b.verifyError() == null ? "ok " + Times.human(b.verifiedAt(), now) : "FAILED");
    }

    static String shortDigest(String digest) {
        return digest.length() > 19 ? digest.substring(0, 19) + "…" : digest;
    }
}
