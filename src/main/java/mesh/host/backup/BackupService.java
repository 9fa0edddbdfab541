package mesh.host.backup;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mesh.bundle.BundleFailure;
import mesh.bundle.HttpRegistry;
import mesh.bundle.Registry;
import mesh.docker.Engine;
import mesh.host.take.HashCache;
import mesh.host.take.TakeRefused;
import mesh.host.take.TakeRules;
import mesh.host.take.TakeService;
import mesh.host.take.TakeState;
import mesh.model.ObservedContainer;
import mesh.wire.BackupCommand;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;
import mesh.wire.BackupRestoreRequest;
import mesh.wire.BackupVerifyRequest;
import mesh.model.BackupVolume;
import org.jboss.logging.Logger;

/**
 * BackupService is the host agent's side of backups (docs/backup.md, "On the nodes"). A backup reads a module's
 * volumes only while the take's fence keeps it stopped here at the backup's epoch, or, when the module runs, right
 * after its components' backup commands made their copy. A restore writes a backup's volumes as the copy of a take at
 * its epoch (the take's rules: never over a running module, never over data no take left here), so a rollback deletes
 * it as it deletes a take's copy. The checks come first and refuse with {@link TakeRefused}; the work then reports
 * through {@link BackupCounters} and ends with its last line.
 */
public final class BackupService {

    private static final Logger LOG = Logger.getLogger("mesh.host");
    /** How long a component's backup command may run. */
    static final Duration COMMAND = Duration.ofMinutes(30);

    private final TakeService takes;
    private final Engine engine;
    private final String node;
    private final HashCache hashes = new HashCache();
    private final PackNames packNames = new PackNames();
    private final ChunkNames chunkNames = new ChunkNames();

    public BackupService(TakeService takes, Engine engine, String node) {
        this.takes = takes;
        this.engine = engine;
        this.node = node;
    }

    /** The registry a request names, refused by name when it is not a URL. */
    static Registry registry(String url) {
        try {
            return new HttpRegistry(url);
        } catch (BundleFailure e) {
            throw TakeRefused.bad("registry: " + e.detail());
        }
    }

    static String repository(String repository) {
        if (repository == null || !repository.matches("[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*")) {
            throw TakeRefused.bad("repository '" + repository + "' is not a registry repository name");
        }
        return repository;
    }

    /** Checks a backup may read the module's volumes now and finds them; refused before anything is read. */
    public List<BackupUpload.Folder> checkBackup(String module, BackupPushRequest r) {
        TakeRules.name("module", module);
        repository(r.repository());
        if (r.tag() == null || !r.tag().matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")) {
            throw TakeRefused.bad("tag '" + r.tag() + "' is not a registry tag");
        }
        if (r.volumes().isEmpty()) {
            throw TakeRefused.bad("a backup names at least one volume of module " + module);
        }
        if (!r.live()) {
            TakeState s = takes.records().read(module);
            if (!s.fenced() || s.fence().epoch() != r.epoch()) {
                throw TakeRefused.conflict("module " + module + " is not fenced here at epoch " + r.epoch()
                        + ": a backup reads its volumes only while the module is stopped by the backup's fence");
            }
        }
        List<BackupUpload.Folder> folders = new ArrayList<>();
        for (BackupVolume v : r.volumes()) {
            Path p = takes.places().require(module, TakeRules.name("volume", v.name()), TakeRules.kind(v.kind()));
            folders.add(new BackupUpload.Folder(v.name(), v.kind(), p));
        }
        if (r.live()) {
            for (BackupCommand c : r.commands()) {
                container(module, c.component());
            }
        }
        return folders;
    }

    /** Runs the backup commands (a live backup), then uploads; the last line. */
    public BackupProgress backup(String module, BackupPushRequest r, List<BackupUpload.Folder> folders, BackupCounters counters) {
        try {
            if (r.live()) {
                for (BackupCommand c : r.commands()) {
                    counters.at("command of " + c.component());
                    int exit = engine.exec(container(module, c.component()).id(), c.command(), COMMAND);
                    if (exit != 0) {
                        return BackupProgress.failed("the backup command of " + c.component() + " " + (exit < 0
                                ? "did not end within " + COMMAND.toMinutes() + " minutes" : "exited " + exit)
                                + "; nothing was backed up");
                    }
                }
            }
            BackupProgress end = new BackupUpload(registry(r.registry()), r.repository(), hashes, packNames, chunkNames)
                    .run(module, r.tag(), folders, counters);
            LOG.infof("backed up module %s to %s/%s:%s: %d bytes in %d files, %d bytes sent", module, r.registry(),
                    r.repository(), r.tag(), end.bytes(), end.files(), end.sent());
            return end;
        } catch (BackupBroken e) {
            return BackupProgress.failed("the backup of module " + module + " failed: " + e.getMessage());
        } catch (BundleFailure e) {
            return BackupProgress.failed("the backup of module " + module + " failed: " + e.detail());
        } catch (RuntimeException e) {
            return BackupProgress.failed("the backup of module " + module + " failed: " + e.getMessage());
        }
    }

    private ObservedContainer container(String module, String component) {
        return engine.list(node).stream().filter(o -> component.equals(o.name()) && module.equals(o.module()) && o.running()
                && !o.process()).findFirst().orElseThrow(() -> TakeRefused.conflict("component " + component + " of module "
                + module + " does not run here, so its backup command cannot run; nothing was backed up"));
    }

    /** Checks a restore may begin (names, the module not running here) before anything is written. */
    public void checkRestore(String module, BackupRestoreRequest r) {
        TakeRules.name("module", module);
        repository(r.repository());
        registry(r.registry());
        reference(r.reference());
        if (r.volumes().isEmpty()) {
            throw TakeRefused.bad("a restore names at least one volume of module " + module);
        }
        for (BackupVolume v : r.volumes()) {
            TakeRules.name("volume", v.name());
            TakeRules.kind(v.kind());
        }
    }

    /**
     * Restores each volume the request names: the volume made (or emptied, when a take or an earlier restore left it)
     * as the copy of the take at the request's epoch, the backup written and checked. The last line carries each
     * volume's manifest digest as restored.
     */
    public BackupProgress restore(String module, BackupRestoreRequest r, BackupCounters counters) {
        long began = System.nanoTime();
        try {
            Registry registry = registry(r.registry());
            BackupFetch.Read read = BackupFetch.read(registry, r.repository(), r.reference());
            if (!module.equals(read.config().module())) {
                return BackupProgress.failed("backup " + r.reference() + " is of module " + read.config().module() + ", not " + module);
            }
            List<BackupArtifact.Volume> chosen = BackupRestore.chosen(read.config(), r.volumes().stream().map(BackupVolume::name).toList());
            List<BackupVolume> done = new ArrayList<>();
            BackupRestore restore = new BackupRestore(registry, r.repository(), read.config());
            for (BackupArtifact.Volume v : chosen) {
                Path folder = takes.prepareCopy(module, v.manifest().volume(), v.kind(), r.epoch(), false);
                String digest = restore.run(v, folder, counters);
                done.add(new BackupVolume(v.manifest().volume(), v.kind(), digest, v.manifest().bytes(), v.manifest().files()));
            }
            LOG.infof("restored module %s from %s/%s@%s: %s", module, r.registry(), r.repository(), r.reference(),
                    done.stream().map(BackupVolume::name).toList());
            return BackupProgress.finished(counters.bytes.get(), counters.files.get(), 0, r.reference(), counters.bytes.get(),
                    done, (System.nanoTime() - began) / 1e9);
        } catch (TakeRefused e) {
            return BackupProgress.failed("the restore of module " + module + " was refused: " + e.getMessage());
        } catch (BackupBroken e) {
            return BackupProgress.failed("the restore of module " + module + " failed: " + e.getMessage());
        } catch (BundleFailure e) {
            return BackupProgress.failed("the restore of module " + module + " failed: " + e.detail());
        } catch (RuntimeException e) {
            return BackupProgress.failed("the restore of module " + module + " failed: " + e.getMessage());
        }
    }

    /** Checks a verify's request (a registry URL, a repository, a manifest digest) before anything is fetched. */
    public void checkVerify(BackupVerifyRequest r) {
        registry(r.registry());
        repository(r.repository());
        reference(r.reference());
    }

    static String reference(String reference) {
        if (mesh.bundle.Digest.parse(reference) == null) {
            throw TakeRefused.bad("reference '" + reference + "' is not a backup's manifest digest (sha256:<64 hex>)");
        }
        return reference;
    }

    /** Fetches a whole backup and checks every file against its manifest; the last line. */
    public BackupProgress verify(BackupVerifyRequest r, BackupCounters counters) {
        try {
            return new BackupVerify(registry(r.registry()), repository(r.repository())).run(r.reference(), counters);
        } catch (BackupBroken e) {
            return BackupProgress.failed(e.getMessage());
        } catch (BundleFailure e) {
            return BackupProgress.failed(e.detail());
        } catch (RuntimeException e) {
            return BackupProgress.failed(e.getMessage() == null ? "the verify failed" : e.getMessage());
        }
    }
}
