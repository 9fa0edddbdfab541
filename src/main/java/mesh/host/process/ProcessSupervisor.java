package mesh.host.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mesh.model.InvalidInput;

/**
 * ProcessSupervisor runs the components of process form ({@code bundle:}) and keeps exactly one copy of
 * each running, across restarts of the agent. The decisions are {@link Identity} and {@link Supervision}'s;
 * this class reads the facts, carries the decisions out and records them.
 *
 * <pre>
 * apply(spec) ─► read record ─► /proc says? ─► Identity: ADOPT | GONE | FOREIGN
 *                                   │ GONE/FOREIGN: fold the shim's exit file into the record (backoff)
 *                                   ▼
 *                 Supervision.decide: KEEP | REPLACE (stop, start) | START | WAIT
 * </pre>
 *
 * <p><b>Surviving the agent.</b> Each process is started as {@code setsid sh -c SHIM ...} (see
 * {@link LaunchCommand}): a session and process group of its own, stdin from /dev/null, stdout and stderr
 * appended to its log file, no descriptor of the JVM. Killing the agent (SIGKILL, a restart) leaves it
 * running; it is re-parented and the next agent adopts it. Under systemd the agent's unit must say
 * {@code KillMode=process}, or stopping or restarting the unit would kill every process of its cgroup.
 *
 * <p><b>The shim.</b> A re-adopted process is not the JVM's child, so its exit status cannot be had from
 * waitpid. The session leader is therefore a small {@code sh} shim that runs the component, forwards TERM
 * and INT to it, and writes "PID STATUS" to an exit file when it ends. The identity (pid, start time, boot
 * id, command line) is the shim's, always; the shim's command line carries the component and its spec
 * digest, so "one copy" is counted from {@code /proc} by that command line. The trade-offs: one extra
 * {@code sh} per component; {@code sh}'s wait cannot tell "exit 143" from "killed by TERM" ({@link ExitStatus}); a
 * shim killed by SIGKILL writes nothing (the exit is then "unknown", or signal 9 when the supervisor sent it); a
 * component that puts itself into another process group escapes the group kill.
 *
 * <p><b>Names.</b> The component runs in a mount namespace of its own ({@code unshare --mount}) with its hosts file
 * bound over {@code /etc/hosts}, so it resolves exactly the names it binds; this needs root, as the agent is.
 *
 * <p><b>Signals.</b> A signal is sent only right after {@link Identity} said ADOPT: a pid that now belongs to another
 * process is never signalled. Stop sends TERM to the shim (which forwards it), then KILL to the whole group; once the
 * shim is gone, TERM and then KILL to what the component left in its group, and it counts as stopped only when the
 * group is empty ({@link Supervision#stopEnd}).
 */
public final class ProcessSupervisor {

    /**
     * What {@link #apply} did: kept, started, restarted, replaced, adopted, waiting or failed; {@code backoff}, for a
     * restart, the wait the backoff chose after the end before it ({@link Supervision#backoffBefore}), else null.
     */
    public record Outcome(String component, Action action, long pid, String detail, Duration backoff) {

        public Outcome(String component, Action action, long pid, String detail) {
            this(component, action, pid, detail, null);
        }
    }

    /** What an apply of one process did; in logs, its lower-case name. */
    public enum Action {
        STARTED, RESTARTED, ADOPTED, REPLACED, KEPT, WAITING, FAILED;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What a stop did: graceful, killed, not running or foreign (not signalled), and how long it took; {@code failure},
     * when set, says what outlived TERM and KILL ({@link Supervision#stopEnd}): the copy is not stopped then.
     */
    public record Stopped(String component, String how, long pid, long millis, ExitStatus exit, String failure) {
    }

    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration SHIM_APPEARS = Duration.ofSeconds(5);

    private final ProcessRecords records;
    private final Path stateDir;
    private final Path logDir;
    private final ProcessHost host;
    private final Backoff backoff;
    private final LogFiles.Limits logLimits;
    private final String bootId;
    private final ProcessGroups groups;
    private final ProcessStops stops;

    public ProcessSupervisor(Path stateDir, ProcessHost host, Backoff backoff, LogFiles.Limits logLimits) {
        this.records = new ProcessRecords(stateDir);
        this.stateDir = stateDir;
        this.logDir = stateDir.resolve("logs");
        this.host = host;
        this.backoff = backoff;
        this.logLimits = logLimits;
        this.bootId = host.bootId();
        this.groups = new ProcessGroups(host, bootId, POLL);
        this.stops = new ProcessStops(host, groups, records, bootId, POLL);
    }

    public ProcessRecords records() {
        return records;
    }

    /** Makes {@code spec} run: keeps a matching copy, replaces one of another spec, (re)starts when due. */
    public synchronized Outcome apply(ProcessSpec spec, Instant now) {
        List<String> problems = spec.problems();
        if (!problems.isEmpty()) {
            throw new InvalidInput(problems);
        }
        ProcessRecord record = observe(records.read(spec.component()).orElse(null), now);
        Identity.Verdict verdict = verdict(record);
        logs(spec.component()).rotateIfNeeded();
        return switch (Supervision.decide(spec, record, verdict, now)) {
            case KEEP -> new Outcome(spec.component(), Action.KEPT, record.pid(), "running since " + record.startedAt());
            case WAIT -> new Outcome(spec.component(), Action.WAITING, 0, "next start at " + record.nextStartAt()
                    + " after " + (record.lastExit() == null ? record.launchError() : record.lastExit().describe()));
            case REPLACE -> {
                Stopped stopped = stops.stop(record);
                if (stopped.failure() != null) {
                    // never a second copy: something of the old one outlived TERM and KILL, so nothing new starts
                    yield new Outcome(spec.component(), Action.FAILED, record.pid(), "the old copy (pid " + record.pid()
                            + ") did not end: " + stopped.failure() + "; the new spec is not started");
                }
                ProcessRecord ended = record.ended(stopped.exit(), 0, null);
                records.write(ended);
                Outcome started = launch(spec, ended.forSpec(spec), false, now);
                yield new Outcome(spec.component(), Action.REPLACED, started.pid(), "old copy " + stopped.how() + "; " + started.detail());
            }
            case START -> launch(spec, record, Supervision.isRestart(spec, record), now);
        };
    }

    /**
     * Restarts what ended and is due, and rotates the logs (the agent calls it on every pass); launches nothing of a
     * module {@code held} names (the agent's start hold, docs/backup.md).
     */
    public synchronized List<Outcome> reconcile(Instant now, java.util.function.Predicate<String> held) {
        List<Outcome> outcomes = new ArrayList<>();
        for (String component : records.components()) {
            Optional<ProcessRecord> record = records.read(component);
            if (record.isPresent() && !record.get().stopped() && !held.test(record.get().spec().module())) {
                outcomes.add(apply(record.get().spec(), now));
            } else {
                logs(component).rotateIfNeeded();
            }
        }
        return outcomes;
    }

    /**
     * Stops the component (TERM, then KILL after its stop timeout, to it and to what it left in its process group) and
     * keeps it stopped until applied again. Throws when something of it outlived TERM and KILL: the record then keeps
     * the copy's identity (the next look at it ends what is left of its group again), and a fence that asked for the
     * stop fails rather than let a take copy data that is still written.
     */
    public synchronized Stopped stop(String component, Instant now) {
        ProcessRecord record = records.read(component).orElse(null);
        if (record == null) {
            return new Stopped(component, "not running", 0, 0, null, null);
        }
        Stopped stopped = stops.stop(record);
        if (stopped.failure() != null) {
            throw new IllegalStateException("component " + component + " did not stop: " + stopped.failure());
        }
        ExitStatus exit = stopped.exit() != null ? stopped.exit()
                : record.hasProcess() ? records.exit(record, now).status() : record.lastExit();
        records.write(record.withStopped(true).ended(exit, 0, null));
        return stopped;
    }

    /** Stops the component and forgets it (record and runtime files). Its data directory and log stay. */
    public synchronized Stopped remove(String component, Instant now) {
        Stopped stopped = stop(component, now);
        records.delete(component);
        return stopped;
    }

    /** The status of every recorded component, sorted by name. */
    public synchronized List<ProcessStatus> status(Instant now) {
        List<ProcessStatus> all = new ArrayList<>();
        for (String component : records.components()) {
            ProcessRecord record = observe(records.read(component).orElse(null), now);
            if (record != null) {
                all.add(ProcessStatus.of(record, verdict(record)));
            }
        }
        return all;
    }

    /** The component's log (for {@code mesh host logs COMPONENT [--follow]}). */
    public LogFiles logs(String component) {
        return LogFiles.of(stateDir, component, logLimits);
    }

    private Identity.Verdict verdict(ProcessRecord record) {
        return record == null ? Identity.Verdict.GONE : Identity.judge(record, host.inspect(record.pid()), bootId);
    }

    /** The record, with its ended process folded in (exit status, backoff) when /proc no longer shows it. */
    private ProcessRecord observe(ProcessRecord record, Instant now) {
        if (record == null || !record.hasProcess() || verdict(record) == Identity.Verdict.ADOPT) {
            return record;
        }
        groups.endRemnants(record);
        ProcessRecords.ExitFile exit = records.exit(record, now);
        ProcessRecord ended = Supervision.ended(record, exit.status(), exit.at(), backoff);
        records.write(ended);
        return ended;
    }

    private Outcome launch(ProcessSpec spec, ProcessRecord previous, boolean restart, Instant now) {
        Path executable = Path.of(spec.bundleDir()).resolve(spec.executable());
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            return failed(spec, previous, "the executable " + executable + " is missing or not executable", now);
        }
        Path exitFile = records.exitFile(spec.component());
        LaunchCommand command = LaunchCommand.of(spec, exitFile, records.hostsFile(spec.component()));
        Optional<ProcInfo> orphan = groups.findRunning(command.shimCmdline());
        long pid;
        Optional<ProcInfo> info;
        try {
            if (orphan.isPresent()) {
                // a copy started by an agent that died before it could record it: adopt it, never start a second
                pid = orphan.get().pid();
                info = orphan;
            } else {
                groups.endStrayCopies(spec, command.shimCmdline());
                prepare(spec, exitFile);
                pid = host.launch(command, logs(spec.component()).current());
                info = awaitShim(pid, command.shimCmdline());
            }
        } catch (IOException | UncheckedIOException e) {
            return failed(spec, previous, "cannot start " + executable + ": " + e.getMessage(), now);
        }
        ProcessRecord base = previous == null ? ProcessRecord.fresh(spec)
                : previous.spec().digest().equals(spec.digest()) && !previous.stopped() ? previous : previous.forSpec(spec);
        ProcessRecord running = base.running(pid, info.map(ProcInfo::startTime).orElse(0L), bootId, command.shimCmdline(),
                now.toString(), base.restarts() + (restart ? 1 : 0));
        records.write(running);
        Action action = orphan.isPresent() ? Action.ADOPTED : restart ? Action.RESTARTED : Action.STARTED;
        Duration waited = action == Action.RESTARTED ? Supervision.backoffBefore(base, backoff) : null;
        return new Outcome(spec.component(), action, pid, "pid " + pid + (restart ? ", restart " + running.restarts() : "")
                + (waited == null ? "" : ", after a backoff of " + waited.toMillis() + " ms"), waited);
    }

    private Outcome failed(ProcessSpec spec, ProcessRecord previous, String error, Instant now) {
        ProcessRecord record = Supervision.launchFailed(spec, previous, error, now, backoff);
        records.write(record);
        return new Outcome(spec.component(), Action.FAILED, 0, error + "; next start at " + record.nextStartAt());
    }

    private void prepare(ProcessSpec spec, Path exitFile) throws IOException {
        Files.createDirectories(Path.of(spec.dataDir()));
        Files.createDirectories(records.runtimeDir(spec.component()));
        Files.createDirectories(logDir);
        Path hosts = records.hostsFile(spec.component());
        Path tmp = hosts.resolveSibling("hosts.tmp");
        Files.writeString(tmp, spec.hostsFile(), StandardCharsets.UTF_8);
        Files.move(tmp, hosts, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(exitFile);
    }

    /** Waits until setsid has exec'd the shim, so the recorded command line is the one /proc shows. */
    private Optional<ProcInfo> awaitShim(long pid, List<String> shimCmdline) {
        var seen = new Object() {
            Optional<ProcInfo> info;
        };
        ProcessGroups.until(SHIM_APPEARS, Duration.ofMillis(5), () -> {
            seen.info = host.inspect(pid);
            return seen.info.isEmpty() || seen.info.get().cmdline().equals(shimCmdline);
        });
        return seen.info;
    }
}
