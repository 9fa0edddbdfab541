package mesh.host;

import static mesh.host.AgentCalls.call;
import static mesh.host.AgentCalls.read;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import mesh.host.backup.BackupCounters;
import mesh.host.backup.BackupService;
import mesh.host.backup.RegistryThreads;
import mesh.model.DeclarationJson;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;
import mesh.wire.BackupRestoreRequest;
import mesh.wire.BackupVerifyRequest;

/**
 * BackupResource is the agent's backup API (docs/backup.md, "On the nodes"): back a module's volumes up into a
 * registry, restore a backup into this node's volumes, verify a backup. Each answers NDJSON progress lines, one a
 * second whatever the work is doing (hashing a large file, waiting on the registry), then its last line; like the
 * take's copy, the lines are a {@code Multi} with latest-wins overflow, so a caller that stops reading never holds the
 * work up, and a caller that goes away stops it. The checks run before the head is sent, so a refusal is the agent's
 * JSON error. Only the controller's certificate is let in ({@link HostApiGuard}).
 */
@jakarta.inject.Singleton
@Path("/v1/backups")
@Produces("application/x-ndjson")
public class BackupResource {

    static final Duration EVERY = Duration.ofSeconds(1);

    @Inject
    HostAgent agent;

    private volatile BackupService service;

    private BackupService backups() {
        BackupService s = service;
        if (s == null) {
            synchronized (this) {
                if (service == null) {
                    service = new BackupService(agent.takes(), agent.engine(), agent.settings().node());
                }
                s = service;
            }
        }
        return s;
    }

    @POST
    @Path("/{module}")
    @Consumes(MediaType.WILDCARD)
    @Blocking
    public Multi<byte[]> backup(@PathParam("module") String module, String body) {
        BackupPushRequest r = read(body, BackupPushRequest.class, "{\"epoch\": 7, \"live\": false, \"registry\": "
                + "\"http://10.77.0.11:5000\", \"repository\": \"mesh-backup/db\", \"tag\": \"backup-1\", \"volumes\": "
                + "[{\"name\": \"data\", \"kind\": \"container\"}], \"commands\": []}");
        var folders = call(() -> backups().checkBackup(module, r));
        return lines("backup " + module, c -> backups().backup(module, r, folders, c));
    }

    @POST
    @Path("/{module}/restore")
    @Consumes(MediaType.WILDCARD)
    @Blocking
    public Multi<byte[]> restore(@PathParam("module") String module, String body) {
        BackupRestoreRequest r = read(body, BackupRestoreRequest.class, "{\"epoch\": 7, \"registry\": \"http://10.77.0.11:5000\","
                + " \"repository\": \"mesh-backup/db\", \"reference\": \"sha256:...\", \"volumes\": [{\"name\": \"data\","
                + " \"kind\": \"container\"}]}");
        call(() -> {
            backups().checkRestore(module, r);
            return null;
        });
        return lines("restore " + module, c -> backups().restore(module, r, c));
    }

    @POST
    @Path("/verify")
    @Consumes(MediaType.WILDCARD)
    @Blocking
    public Multi<byte[]> verify(String body) {
        BackupVerifyRequest r = read(body, BackupVerifyRequest.class, "{\"registry\": \"http://10.77.0.11:5000\", "
                + "\"repository\": \"mesh-backup/db\", \"reference\": \"sha256:...\"}");
        call(() -> {
            backups().checkVerify(r);
            return null;
        });
        return lines("verify " + r.reference(), c -> backups().verify(r, c));
    }

    /** The work on a thread of its own ({@link RegistryThreads}); a line a second from its counters, then its last line. */
    private static Multi<byte[]> lines(String name, Function<BackupCounters, BackupProgress> work) {
        return Multi.createFrom().<byte[]>emitter(out -> {
            BackupCounters counters = new BackupCounters();
            Thread worker = RegistryThreads.start(name, () -> {
                BackupProgress last;
                try {
                    last = work.apply(counters);
                } catch (RuntimeException e) {
                    last = BackupProgress.failed(name + " failed: " + e.getMessage());
                }
                synchronized (counters) {
                    emit(out, last);
                    out.complete();
                }
            });
            Thread.ofVirtual().name(name + " lines").start(() -> {
                while (worker.isAlive()) {
                    try {
                        worker.join(EVERY);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (out.isCancelled()) {
                        counters.cancel();
                        return;
                    }
                    if (worker.isAlive()) {
                        synchronized (counters) {
                            emit(out, counters.line());
                        }
                    }
                }
            });
        }, BackPressureStrategy.LATEST);
    }

    private static void emit(MultiEmitter<? super byte[]> out, BackupProgress line) {
        if (out.isCancelled()) {
            return;
        }
        try {
            out.emit(DeclarationJson.MAPPER.writeValueAsString(line).getBytes(StandardCharsets.UTF_8));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a progress line cannot be written as JSON", e);
        }
    }
}
