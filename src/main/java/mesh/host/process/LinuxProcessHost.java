package mesh.host.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * LinuxProcessHost is {@link ProcessHost} on Linux: {@code /proc} for what runs, {@link ProcessBuilder} to
 * start (the JVM's spawn helper closes every descriptor but stdio, so the child holds nothing of the agent),
 * and {@code kill(1)} for signals, because the JDK can signal a process but not a process group.
 */
public final class LinuxProcessHost implements ProcessHost {

    private final Path proc;

    public LinuxProcessHost() {
        this(Path.of("/proc"));
    }

    LinuxProcessHost(Path proc) {
        this.proc = proc;
    }

    @Override
    public Optional<ProcInfo> inspect(long pid) {
        if (pid <= 0) {
            return Optional.empty();
        }
        Path dir = proc.resolve(Long.toString(pid));
        try {
            String stat = Files.readString(dir.resolve("stat"));
            byte[] cmdline = Files.readAllBytes(dir.resolve("cmdline"));
            return Optional.of(ProcInfo.parse(pid, stat, cmdline));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (!Files.exists(dir)) {
                return Optional.empty(); // it ended while we read it
            }
            throw new UncheckedIOException("cannot read " + dir, e);
        }
    }

    @Override
    public List<Long> pids() {
        try (java.util.stream.Stream<Path> entries = Files.list(proc)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(n -> !n.isEmpty() && n.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + proc, e);
        }
    }

    @Override
    public String bootId() {
        try {
            return Files.readString(proc.resolve("sys/kernel/random/boot_id")).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read this boot's id", e);
        }
    }

    @Override
    public long launch(LaunchCommand command, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command.argv())
                .directory(command.workDir().toFile())
                .redirectInput(new File("/dev/null"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().clear();
        pb.environment().putAll(command.env());
        return pb.start().pid();
    }

    @Override
    public void signal(long pid, String signal, boolean group) {
        if (pid <= 1) {
            throw new IllegalArgumentException("refusing to signal pid " + pid);
        }
        List<String> cmd = List.of("kill", "-" + signal, "--", (group ? "-" : "") + pid);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot send " + signal + " to " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
