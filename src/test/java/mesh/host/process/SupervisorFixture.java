package mesh.host.process;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * SupervisorFixture is one test's world: a unique folder holding a bundle of shell-script executables, the
 * supervisor's state dir and the data dirs. Every process a test starts carries that folder's path on its
 * command line (a "marker"), so copies can be counted from /proc, and {@link #close} stops everything by
 * its recorded identity, then, as a last resort, kills what still carries the marker.
 */
final class SupervisorFixture implements AutoCloseable {

    final Path root;
    final Path bundle;
    final Path state;
    final LinuxProcessHost host = new LinuxProcessHost();

    SupervisorFixture() throws IOException {
        root = Files.createTempDirectory("mesh-supervisor-");
        bundle = Files.createDirectories(root.resolve("bundle"));
        state = Files.createDirectories(root.resolve("state"));
    }

    ProcessSupervisor supervisor(Backoff backoff, LogFiles.Limits limits) {
        return new ProcessSupervisor(state, host, backoff, limits);
    }

    ProcessSupervisor supervisor() {
        return supervisor(new Backoff(Duration.ofMillis(200), Duration.ofMillis(1600), Duration.ofSeconds(60)),
                new LogFiles.Limits(4096, 3));
    }

    /** Writes an executable script {@code bin/NAME} into the bundle; its last argument is the marker by convention. */
    void script(String name, String body) throws IOException {
        Path file = Files.createDirectories(bundle.resolve("bin")).resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    ProcessSpec spec(String component, String script, List<String> args, Map<String, String> hosts, long stopTimeoutMillis) {
        return ProcessSpec.of(component, "testmod", bundle.toString(), "bin/" + script, args, Map.of("MARKER", root.toString()),
                root.resolve("data").resolve(component).toString(), hosts, stopTimeoutMillis);
    }

    /** Live (not zombie) processes whose command line holds {@code text}. */
    List<ProcInfo> processesWith(String text) {
        return host.pids().stream().map(host::inspect).flatMap(java.util.Optional::stream)
                .filter(p -> !p.ended() && p.cmdline().stream().anyMatch(a -> a.contains(text)))
                .toList();
    }

    /**
     * The busybox httpd servers this test started: live processes whose command line names httpd and this test's
     * folder, less the children a server forks for each connection it answers (busybox httpd forks one per
     * connection, with the same command line, and it may outlive the probe that opened it by a moment).
     */
    List<ProcInfo> servers() {
        List<ProcInfo> httpds = processesWith("httpd").stream()
                .filter(p -> p.cmdline().stream().anyMatch(a -> a.contains(root.toString())))
                .toList();
        java.util.Set<Long> pids = httpds.stream().map(ProcInfo::pid).collect(java.util.stream.Collectors.toSet());
        return httpds.stream().filter(p -> !pids.contains(parentOf(p.pid()))).toList();
    }

    /** The parent's pid from /proc/PID/stat (the field after the state, past the command's closing parenthesis). */
    private static long parentOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /** Live processes whose command line is exactly {@code cmdline}: the copies of one shim. */
    long copies(List<String> cmdline) {
        return host.pids().stream().map(host::inspect).flatMap(java.util.Optional::stream)
                .filter(p -> !p.ended() && p.cmdline().equals(cmdline))
                .count();
    }

    ProcessRecord record(String component) {
        return new ProcessRecords(state).read(component).orElseThrow(() -> new AssertionError("no record of " + component));
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        ProcessSupervisor supervisor = supervisor();
        for (String component : new ProcessRecords(state).components()) {
            supervisor.remove(component, Instant.now());
        }
        // last resort: whatever still carries this test's unique folder on its command line is ours
        for (ProcInfo p : processesWith(root.toString())) {
            host.signal(p.pid(), "KILL", false);
        }
        await("no process of this test is left", Duration.ofSeconds(5), () -> processesWith(root.toString()).isEmpty());
        try (var files = Files.walk(root)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
