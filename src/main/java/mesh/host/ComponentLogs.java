package mesh.host;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import mesh.api.Refusal;
import mesh.docker.Engine;
import mesh.docker.EngineFailure;
import mesh.host.process.LogFiles;
import mesh.host.process.ProcessStatus;
import mesh.model.ObservedContainer;
import mesh.model.Poll;
import mesh.plan.FollowEnd;
import mesh.plan.LogQuery;
import mesh.plan.LogText;
import mesh.wire.LineQueue;
import mesh.wire.LogLine;

/**
 * ComponentLogs opens the output of one component of this node as a {@link LineQueue} ({@code mesh logs}):
 * a container's from the engine, a process's from its log files. Each is read only as fast as the queue is
 * emptied. A follow reads one copy of the component and ends by {@link FollowEnd}'s rule, checked every
 * {@link #CHECK}; the reader's going away closes the queue, which stops the engine's stream or the file's
 * reading. The streams open now are listed ({@code GET /v1/logs}), so "the agent stopped reading" is visible.
 */
@ApplicationScoped
public class ComponentLogs {

    /** How often a follow asks whether its copy is still the component's. */
    static final Duration CHECK = Duration.ofSeconds(1);
    /** How often a process's log file is looked at for new lines while following. */
    static final Duration POLL = Duration.ofMillis(200);

    /** Open is a stream being read now: the component, the copy it reads, whether it follows, since when. */
    public record Open(String component, String copy, boolean follow, String openedAt) {
    }

    @Inject
    HostAgent agent;

    private final Set<Open> open = ConcurrentHashMap.newKeySet();

    /** The streams open now. */
    public List<Open> open() {
        return List.copyOf(open);
    }

    /** The output of {@code component} as {@code query} asks; refused (404) when no such component runs here. */
    public LineQueue open(String component, LogQuery query) {
        String node = agent.settings().node();
        List<ObservedContainer> containers;
        try {
            containers = agent.engine().list(node);
        } catch (EngineFailure e) {
            throw new Refusal(503, "the engine of node " + node + " did not answer: " + e.getMessage());
        }
        Optional<ObservedContainer> container = containers.stream()
                .filter(o -> !o.process() && o.name().equals(component)).findFirst();
        if (container.isPresent()) {
            return container(component, container.get(), query);
        }
        Optional<ProcessStatus> process = process(component);
        LogFiles files = agent.logs(component);
        if (process.isPresent() || !files.files().isEmpty()) {
            return process(component, process, files, query);
        }
        throw new Refusal(404, "component " + component + " does not run on node " + node
                + ": it has no container or process of that name");
    }

    private LineQueue container(String component, ObservedContainer c, LogQuery query) {
        LineQueue queue = new LineQueue(1);
        AtomicBoolean decided = new AtomicBoolean();   // the watch ended the follow: the stream's close is no break
        AtomicBoolean finished = new AtomicBoolean();
        Runnable finish = () -> {
            if (finished.compareAndSet(false, true)) {
                queue.done();
            }
        };
        Engine engine = agent.engine();
        java.io.Closeable stream;
        try {
            stream = engine.logs(c.id(), query.since(), query.tail(), query.follow(), new Engine.LogSink() {
                @Override
                public void frame(boolean stderr, String text) throws InterruptedException {
                    for (String piece : text.split("\n")) {
                        LogText.Stamped s = LogText.split(LogText.chomp(piece));
                        if (!queue.put(LogLine.of(component, stderr ? "stderr" : "stdout", s.time(), s.text()))) {
                            return;
                        }
                    }
                }

                @Override
                public void ended(Throwable failure) {
                    if (query.follow() && failure == null) {
                        return;   // the container stopped: the watch says whether it was replaced, removed, or stopped
                    }
                    if (failure != null && !queue.closed() && !decided.get()) {
                        put(queue, LogLine.failed(component, "the engine's stream of " + component + " broke: "
                                + failure.getMessage()));
                    }
                    finish.run();
                }
            });
        } catch (EngineFailure e) {
            throw new Refusal(503, e.getMessage());
        }
        queue.onClose(() -> close(stream));
        listed(queue, component, c.id(), query.follow());
        if (query.follow()) {
            // a platform thread: the watch asks the engine (a blocking read on its socket), and a virtual thread's
            // socket read can miss its wake-up in the native executable and wait for ever (oracle/graal#13787)
            Thread.ofPlatform().daemon(true).name("logs-watch " + component).start(() -> {
                watch(queue, component, c.id(), () -> {
                    Optional<ObservedContainer> now = engine.list(agent.settings().node()).stream()
                            .filter(o -> !o.process() && o.name().equals(component)).findFirst();
                    return new FollowWatch.Copy(now.map(ObservedContainer::id), now.map(ObservedContainer::running).orElse(false));
                });
                decided.set(true);
                close(stream);
                finish.run();
            });
        }
        return queue;
    }

    private LineQueue process(String component, Optional<ProcessStatus> status, LogFiles files, LogQuery query) {
        LineQueue queue = new LineQueue(1);
        String followed = status.map(ComponentLogs::copyOf).orElse("process:-");
        listed(queue, component, followed, query.follow());
        Thread.ofVirtual().name("logs " + component).start(() -> {
            try {
                if (query.tail() != null) {
                    for (String line : files.lastLines(query.tail())) {
                        if (!queue.put(LogLine.of(component, "output", null, line))) {
                            return;
                        }
                    }
                } else if (!all(queue, component, files, query.since())) {
                    return;
                }
                if (query.follow()) {
                    followProcess(queue, component, followed, files);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                put(queue, LogLine.failed(component, "the log of " + component + " could not be read: " + e.getMessage()));
            } finally {
                queue.done();
            }
        });
        return queue;
    }

    /**
     * Every kept line of a process, oldest file first, read line by line (a 10 MiB file is never held whole). A
     * process's lines carry no time: with {@code since}, only its rotated files last written before then are left out.
     */
    private static boolean all(LineQueue queue, String component, LogFiles files, Instant since) throws InterruptedException {
        for (Path file : files.files()) {
            try {
                if (since != null && !file.equals(files.current())
                        && Files.getLastModifiedTime(file).toInstant().isBefore(since)) {
                    continue;
                }
                try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (!queue.put(LogLine.of(component, "output", null, line))) {
                            return false;
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return true;
    }

    private void followProcess(LineQueue queue, String component, String followed, LogFiles files)
            throws InterruptedException {
        FollowWatch watch = new FollowWatch(component, followed, () -> {
            // a process that is down (restarting, exited) has no pid: still the copy followed, not running
            Optional<ProcessStatus> now = process(component);
            return new FollowWatch.Copy(now.map(s -> s.pid() > 0 ? copyOf(s) : followed),
                    now.map(s -> s.state() == mesh.model.ProcessState.RUNNING).orElse(false));
        });
        files.follow(line -> {
            try {
                queue.put(LogLine.of(component, "output", null, line));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                queue.close();
            }
        }, () -> {
            if (queue.closed() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            Optional<String> why = watch.check();
            why.ifPresent(w -> put(queue, LogLine.ended(component, w)));
            return why.isEmpty();
        }, POLL);
    }

    /** Waits, checking every {@link #CHECK}, until the followed copy is no longer the component's; says so. */
    private static void watch(LineQueue queue, String component, String followed, java.util.function.Supplier<FollowWatch.Copy> look) {
        FollowWatch watch = new FollowWatch(component, followed, look);
        try {
            while (!queue.closed()) {
                Optional<String> why;
                try {
                    why = watch.check();
                } catch (EngineFailure e) {
                    put(queue, LogLine.failed(component, "the engine did not answer whether " + component
                            + " still runs: " + e.getMessage()));
                    return;
                }
                if (why.isPresent()) {
                    put(queue, LogLine.ended(component, why.get()));
                    return;
                }
                Poll.pauseInterruptibly(CHECK);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Optional<ProcessStatus> process(String component) {
        return agent.processesNow().stream().filter(s -> s.component().equals(component)).findFirst();
    }

    /** The copy of a process: its pid while it runs. */
    private static String copyOf(ProcessStatus s) {
        return s.pid() > 0 ? "process:" + s.pid() : "process:-";
    }

    private void listed(LineQueue queue, String component, String copy, boolean follow) {
        Open o = new Open(component, copy, follow, Instant.now().toString());
        open.add(o);
        queue.onClose(() -> open.remove(o));
    }

    private static void put(LineQueue queue, LogLine line) {
        try {
            queue.put(line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void close(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // the stream is being dropped anyway
        }
    }
}
