package mesh.host.take;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import mesh.client.HttpTransport;
import mesh.wire.CopyProgress;

/**
 * VolumeCopy is the target's half of a take's copy: it GETs the volume's archive from the source agent with
 * the read ticket and pipes it into tar on this node, never holding more than a buffer of it, reporting
 * bytes and entries once a second, and says done only once what it wrote is on disk. The copy goes from agent
 * to agent, never through the controller. It never waits for ever: the source's head must come within {@link #HEAD}, and no byte from it for {@link #NO_DATA}'s
 * window cuts the copy, which then ends not done saying so.
 */
public final class VolumeCopy {

    private static final int CHUNK = 256 * 1024;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

    /** How long the source agent may take to answer the archive's head (it checks the fence and finds the folder). */
    static final Duration HEAD = Duration.ofSeconds(30);

    /**
     * The stall rule on the target: no byte from the source for this long cuts the copy (the body closed, tar
     * killed). A source agent that is stopped, or a link that dropped without a reset, sends nothing and closes
     * nothing; without this rule the copy, and the take with its module fenced, would wait for ever.
     */
    static final mesh.plan.CopyStall NO_DATA = new mesh.plan.CopyStall(Duration.ofSeconds(30));

    /**
     * Client holds the HTTP client, made at the first copy (the holder idiom): building one loads the
     * JDK's TLS stack and trust store (~500 classes) and starts a selector thread, which an agent that
     * takes nothing should not carry (docs/benchmarks.md, "footprint"). The native executable initializes it when
     * the program runs too (native-image.properties): a client made while the executable is built cannot be kept in it.
     */
    private static final class Client {
        static final HttpTransport HTTP = new HttpTransport(null, Duration.ofSeconds(10), HttpClient.Version.HTTP_1_1);
    }

    private final BlockCache kept;
    /** A copier whose range passes keep what they know of the copies they wrote in {@code kept} ({@link RangePass}). */
    VolumeCopy(BlockCache kept) {
        this.kept = kept;
    }

    /**
     * Copies the source's volume into {@code folder} (made and emptied by the caller); each progress line goes
     * to {@code progress}. Returns the final line: done with bytes, entries and seconds, or not done with why.
     * The copy stops, not done, when {@code run} is cut or when a progress line cannot reach its caller.
     */
    public CopyProgress copy(String from, String ticket, String module, String volume, String kind, Path folder,
                             Consumer<CopyProgress> progress, RunningCopies.Run run) {
        return copy(from, ticket, module, volume, kind, new Pass(false, false, 0), folder, progress, run);
    }

    /**
     * Pass is how one pass of a take's copy reads the source: {@code live} while the module runs there (a
     * pre-copy, with a pre-copy ticket), {@code delta} sending only what differs from what is in the folder
     * ({@link mesh.plan.VolumeDelta}, with {@code since}, the source's clock when the previous pass began).
     */
    public record Pass(boolean live, boolean delta, long since) {
    }

    /**
     * One pass: the source's index first (its clock, and for a delta what it holds), then for a delta the entries
     * only the target has deleted here and the entries that differ fetched (a POST of their paths), else the whole
     * archive; extracted as a whole copy is. The final line adds the entries deleted and the source's clock.
     */
    public CopyProgress copy(String from, String ticket, String module, String volume, String kind, Pass pass, Path folder,
                             Consumer<CopyProgress> progress, RunningCopies.Run run) {
        String base;
        try {
            base = URI.create(from.replaceAll("/+$", "") + mesh.client.AgentApi.volume(module, volume)).toString();
        } catch (IllegalArgumentException e) {
            return CopyProgress.failed("'from' is not a URL: " + from);
        }
        String query = "?kind=" + enc(kind) + (pass.live() ? "&live=true" : "");
        mesh.model.VolumeIndex source;
        try {
            HttpResponse<String> index = Client.HTTP.send(HttpRequest.newBuilder(URI.create(base + "/index" + query))
                    .timeout(HEAD).header("Authorization", "Bearer " + ticket).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (index.statusCode() != 200) {
                return CopyProgress.failed("the source agent refused the index of volume " + volume + " ("
                        + index.statusCode() + "): " + index.body().strip());
            }
            source = mesh.model.DeclarationJson.MAPPER.readValue(index.body(), mesh.model.VolumeIndex.class);
        } catch (IOException e) {
            return CopyProgress.failed("the source agent at " + from + " did not answer: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CopyProgress.failed("interrupted");
        }
        HttpRequest.Builder archive = HttpRequest.newBuilder(URI.create(base + "/archive" + query)).timeout(HEAD)
                .header("Authorization", "Bearer " + ticket);
        long deleted = 0;
        RangePass ranges = new RangePass(Client.HTTP, base, query, ticket, folder, run, progress, kept);
        if (pass.delta()) {
            mesh.model.VolumeIndex here = VolumeScan.index(volume, folder);
            mesh.plan.VolumeDelta d = mesh.plan.VolumeDelta.of(source, here, pass.since());
            try {
                for (String gone : d.delete()) {
                    deleted += VolumePlaces.deleteUnder(folder, gone);
                }
                List<String> send = ranges.archived(d, source, here);
                if (run.isCut()) {
                    return CopyProgress.failed("the copy of volume " + volume + " was cut: its caller went away, or a newer"
                            + " copy of the volume began");
                }
                archive.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        mesh.model.DeclarationJson.MAPPER.writeValueAsString(send)));
            } catch (IOException e) {
                return CopyProgress.failed("the copy of volume " + volume + " could not delete what the source no longer"
                        + " holds: " + e.getMessage());
            }
        } else {
            archive.GET();
        }
        CopyProgress end = stream(archive.build(), from, volume, folder, progress, run);
        return Boolean.TRUE.equals(end.done()) ? CopyProgress.finished(end.bytes() + ranges.bytes(),
                end.files() + ranges.files(), end.seconds(), deleted, source.now()) : end;
    }

    /** Streams the archive {@code request} answers into tar in {@code folder}, with progress and the stall rule. */
    private CopyProgress stream(HttpRequest request, String from, String volume, Path folder,
                                Consumer<CopyProgress> progress, RunningCopies.Run run) {
        long started = System.nanoTime();
        AtomicLong bytes = new AtomicLong();
        AtomicLong entries = new AtomicLong();
        HttpResponse<InputStream> answer;
        try {
            answer = Client.HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            return CopyProgress.failed("the source agent at " + from + " did not answer: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CopyProgress.failed("interrupted");
        }
        try (InputStream body = answer.body()) {
            if (answer.statusCode() != 200) {
                String error = new String(body.readNBytes(4096), StandardCharsets.UTF_8).strip();
                return CopyProgress.failed("the source agent refused the archive of volume " + volume + " ("
                        + answer.statusCode() + "): " + error);
            }
            Process tar = TarStreams.extract(folder);
            run.onCut(() -> {
                tar.destroyForcibly();
                quietlyClose(body);
            });
            CompletableFuture<String> errors = TarStreams.tail(tar.getErrorStream());
            CompletableFuture<Void> members = CompletableFuture.runAsync(() -> count(tar.getInputStream(), entries),
                    r -> Thread.ofVirtual().start(r));
            CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> feed(body, tar.getOutputStream(), bytes),
                    r -> Thread.ofVirtual().start(r));
            long lastBytes = 0;
            long lastAt = System.nanoTime();
            java.util.List<mesh.plan.CopyStall.Sample> samples = java.util.List.of(
                    new mesh.plan.CopyStall.Sample(java.time.Instant.now(), 0));
            boolean stalled = false;
            while (true) {
                try {
                    feed.get(PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException stillCopying) {
                    long now = System.nanoTime();
                    long b = bytes.get();
                    try {
                        progress.accept(CopyProgress.running(b, entries.get(), (b - lastBytes) * 1_000_000_000L / Math.max(1, now - lastAt)));
                    } catch (RuntimeException callerGone) {
                        run.cut();   // no one waits for this copy any more: stop writing the folder
                    }
                    lastBytes = b;
                    lastAt = now;
                    java.time.Instant at = java.time.Instant.now();
                    java.util.List<mesh.plan.CopyStall.Sample> next = new java.util.ArrayList<>(samples);
                    next.add(new mesh.plan.CopyStall.Sample(at, b));
                    samples = mesh.plan.CopyStall.kept(next);
                    if (!stalled && NO_DATA.stalled(samples, at)) {
                        stalled = true;   // closing the body ends the feed's blocked read (JDK 25: IOException "closed")
                        tar.destroyForcibly();
                        quietlyClose(body);
                    }
                } catch (ExecutionException e) {
                    if (stalled) {
                        TarStreams.waitFor(tar);
                        return noData(from, volume, bytes.get());
                    }
                    if (run.isCut()) {
                        TarStreams.waitFor(tar);
                        return CopyProgress.failed("the copy of volume " + volume + " was cut after " + bytes.get()
                                + " bytes: its caller went away, or a newer copy of the volume began");
                    }
                    // tar may have failed first (the feed then breaks on its closed stdin): its own words say more
                    boolean ended = tar.waitFor(2, TimeUnit.SECONDS);
                    if (ended && tar.exitValue() != 0) {
                        return CopyProgress.failed("tar could not write volume " + volume + " (exit " + tar.exitValue()
                                + "): " + errors.join());
                    }
                    tar.destroyForcibly();
                    TarStreams.waitFor(tar);
                    return CopyProgress.failed("the archive of volume " + volume + " broke off after " + bytes.get()
                            + " bytes: " + e.getCause().getMessage());
                }
            }
            int exit = TarStreams.waitFor(tar);
            members.join();
            if (stalled) {
                return noData(from, volume, bytes.get());
            }
            if (run.isCut()) {
                return CopyProgress.failed("the copy of volume " + volume + " was cut: its caller went away, or a newer"
                        + " copy of the volume began");
            }
            if (exit != 0) {
                return CopyProgress.failed("tar could not write volume " + volume + " (exit " + exit + "): " + errors.join());
            }
            CopyProgress still = CopyProgress.running(bytes.get(), entries.get(), 0);
            String unsynced = VolumeSync.run(folder, volume, () -> stillWanted(still, progress, run));
            if (unsynced != null) {
                return CopyProgress.failed(unsynced);
            }
            return CopyProgress.finished(bytes.get(), entries.get(), (System.nanoTime() - started) / 1e9);
        } catch (IOException e) {
            return CopyProgress.failed("the copy of volume " + volume + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CopyProgress.failed("interrupted");
        }
    }

    /** The heartbeat of a pass's sync ({@link VolumeSync}): says {@code still}; false once the pass is cut. */
    private static boolean stillWanted(CopyProgress still, Consumer<CopyProgress> progress, RunningCopies.Run run) {
        try {
            progress.accept(still);
        } catch (RuntimeException callerGone) {
            run.cut();
        }
        return !run.isCut();
    }

    private static CopyProgress noData(String from, String volume, long bytes) {
        return CopyProgress.failed("no data from the source agent at " + from + " for " + NO_DATA.window().toSeconds()
                + " s: it is stopped, or the link to it is down; the copy of volume " + volume + " was cut after "
                + bytes + " bytes");
    }

    private static void quietlyClose(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // closing is how a cut copy stops reading; nothing more to do if it fails
        }
    }

    private static void feed(InputStream body, OutputStream tar, AtomicLong bytes) {
        try (tar) {
            byte[] buffer = new byte[CHUNK];
            for (int n; (n = body.read(buffer)) >= 0; ) {
                tar.write(buffer, 0, n);
                bytes.addAndGet(n);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e.getMessage(), e);
        }
    }

    private static void count(InputStream names, AtomicLong entries) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(names, StandardCharsets.UTF_8))) {
            while (lines.readLine() != null) {
                entries.incrementAndGet();
            }
        } catch (IOException e) {
            // tar ended: the count is what it named
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
