package mesh.host.take;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import mesh.trust.Entropy;
import mesh.wire.CopyProgress;
import mesh.wire.FenceLifted;
import mesh.wire.FenceView;
import mesh.model.VolumeManifest;
import mesh.wire.VolumeView;
import org.jboss.logging.Logger;

/**
 * TakeService is the host agent's side of {@code mesh take} (docs/take.md, "On the nodes"): each call
 * decides with {@link TakeRules} on the module's recorded {@link TakeState}, records the new state durably,
 * and only then acts (stops the module, streams, copies, deletes). Calls about one module run one at a time.
 */
public final class TakeService {

    private static final Logger LOG = Logger.getLogger("mesh.host");

    private final TakeRecords records;
    private final VolumePlaces places;
    private final ModuleControl modules;
    private final Clock clock;
    private final HashCache hashes = new HashCache();
    private final Checkpoints points = new Checkpoints();
    private final VolumeCopy copier = new VolumeCopy(new BlockCache(hashes));
    private final RunningCopies running = new RunningCopies();
    private final RunningArchives archives = new RunningArchives();
    private final SharedSeen shared = new SharedSeen();

    public TakeService(TakeRecords records, VolumePlaces places, ModuleControl modules, Clock clock) {
        this.records = records;
        this.places = places;
        this.modules = modules;
        this.clock = clock;
    }

    public TakeRecords records() {
        return records;
    }

    /** Fences the module at {@code epoch}: recorded (fsync) first, then every component of it stopped. */
    public FenceView fence(String module, long epoch) {
        TakeRules.name("module", module);
        TakeState s = records.update(module, st -> TakeRules.fence(st, epoch, clock.instant()));
        int cut = archives.cut(module, s.fence().epoch(), "the fence of module " + module
                + " was replaced by the take at epoch " + s.fence().epoch() + ": this archive's take is over");
        if (cut > 0) {
            LOG.infof("cut %d archive(s) of module %s read under an older fence", cut, module);
        }
        shared.look(module);   // before the module stops: what it maps goes with it
        List<String> stopped = modules.stopModule(module);
        LOG.infof("fenced module %s at epoch %d; stopped %s", module, epoch, stopped.isEmpty() ? "nothing (none ran)" : stopped);
        return new FenceView(module, s.fence().epoch(), s.fence().since(), stopped);
    }

    /** The target's containers created before the take's fence ({@link TargetContainers}). */
    public TargetContainers targetContainers() {
        return new TargetContainers(records, modules, clock);
    }

    /** Lifts the module's fence: the agent's loop starts it again if the declaration has it. */
    public FenceLifted lift(String module, long epoch) {
        TakeRules.name("module", module);
        boolean[] was = new boolean[1];
        records.update(module, st -> {
            was[0] = st.fenced();
            return TakeRules.lift(st, epoch);
        });
        if (was[0]) {
            LOG.infof("lifted the fence of module %s (epoch %d)", module, epoch);
            modules.lifted(module);
            shared.forget(module);
        }
        int cut = archives.cut(module, 0, "the fence of module " + module + " was lifted (epoch " + epoch
                + "): the module starts here again, so its volumes are no longer archived");
        if (cut > 0) {
            LOG.infof("cut %d running archive(s) of module %s", cut, module);
        }
        return new FenceLifted(module, was[0]);
    }

    public List<FenceView> fences() {
        return records.all().stream().filter(TakeState::fenced)
                .map(s -> new FenceView(s.module(), s.fence().epoch(), s.fence().since(), null)).toList();
    }

    /** A new read ticket for the module's volumes under its fence at {@code epoch}; only its hash is kept. */
    public String ticket(String module, long epoch) {
        TakeRules.name("module", module);
        String ticket = Entropy.hex(32);   // 32 random bytes: only its holder knows it
        records.update(module, st -> TakeRules.ticket(st, epoch, hash(ticket)));
        return ticket;
    }

    /**
     * A new read ticket of the pre-copy at {@code epoch}: it reads the module's volumes while the module runs, until
     * a fence or a lift (docs/take.md, "The pre-copy"); only its hash is kept.
     */
    public String liveTicket(String module, long epoch) {
        TakeRules.name("module", module);
        String ticket = Entropy.hex(32);   // 32 random bytes: only its holder knows it
        records.update(module, st -> TakeRules.liveTicket(st, epoch, hash(ticket)));
        return ticket;
    }

    /** The index of one volume of the module here (lstat only): what a pass compares. Read as an archive is. */
    public mesh.model.VolumeIndex index(String module, String volume, String kind, boolean live) {
        Path folder = archivable(module, volume, kind, live);
        return VolumeScan.index(volume, folder, shared.look(module));
    }

    /** Whether a bearer value is a read ticket of this module under its standing fence. */
    public boolean ticketValid(String module, String bearer) {
        if (bearer == null || !TakeRules.NAME.matcher(module).matches()) {
            return false;
        }
        return TakeRules.ticketValid(records.read(module), hash(bearer));
    }

    /**
     * The manifest of one volume of the module here; {@code warm}: the manifest a pre-copied take makes before its fence, the module running, only so that
     * the verify after the fence reads again just what changed ({@link HashCache}). The test hook holds it at {@code
     * warm}, the verify's at {@code verify}.
     */
    public VolumeManifest manifest(String module, String volume, String kind, boolean warm) {
        Path folder = places.require(TakeRules.name("module", module), TakeRules.name("volume", volume), TakeRules.kind(kind));
        TakeTestHold.at(warm ? "warm" : "verify");
        return ManifestForm.of(module, volume, VolumeScan.scan(folder, hashes, Long.MAX_VALUE, points));
    }

    /**
     * Checks that the volume may be streamed now (the module fenced here, the volume here; with {@code live}, a
     * pre-copy's read, allowed while the module runs under a pre-copy ticket); its folder.
     */
    public Path archivable(String module, String volume, String kind, boolean live) {
        TakeRules.requireArchivable(records.read(TakeRules.name("module", module)), TakeRules.name("volume", volume), live);
        return places.require(module, volume, TakeRules.kind(kind));
    }

    /**
     * The volume's archive as a stream its reader drains at its own pace ({@link ArchivePublisher}), once it
     * may be read now (see {@link #archivable}; refused before anything is sent). It is cut when the fence it
     * is read under is lifted or replaced. For a take's passes: {@code live} reads while the module runs (a pre-copy ticket stands); {@code
     * paths} non-null sends only those entries, each without what is under it (a pass after the first). Cut like any
     * archive when the fence is lifted or replaced, and a live one also when a fence is set.
     */
    public ArchivePublisher archive(String module, String volume, String kind, boolean live, List<String> paths) {
        Path folder = archivable(module, volume, kind, live);
        TakeState s = records.read(module);
        boolean readLive = live && !s.fenced();
        long epoch = s.fenced() ? s.fence().epoch() : -s.epoch();   // a live read is kept by no fence: any fence cuts it
        Path list = paths == null ? null : TarStreams.listFile(paths);
        List<String> command = list != null ? TarStreams.archiveCommand(folder, list, readLive)
                : readLive ? TarStreams.liveArchiveCommand(folder) : TarStreams.archiveCommand(folder);
        ArchivePublisher[] self = new ArchivePublisher[1];
        self[0] = new ArchivePublisher(folder, command, readLive, readLive ? "pre-copy" : "copy", ArchivePublisher.NO_DEMAND, () -> {
            archives.remove(module, self[0]);
            TarStreams.deleteListFile(list);
        });
        archives.add(module, epoch, self[0]);
        TakeState now = records.read(module);
        if (readLive ? now.fenced() || now.liveTickets().isEmpty() : !now.fenced()) {   // changed between the check and here
            self[0].cut("the fence of module " + module + " was " + (readLive ? "set" : "lifted"));
        }
        return self[0];
    }

    /**
     * The blocks of one file of the volume that differ from the target's copy ({@link RangePublisher#of}), checked as
     * an archive is ({@link #archivable}). Read under the fence (not {@code live}), the answer also takes the file's whole
     * sha256 as it reads it, for the verify ({@link HashCache#fenced}).
     */
    public RangePublisher ranges(String module, String volume, String kind, boolean live, mesh.wire.RangeRequest request) {
        Path folder = archivable(module, volume, kind, live);
        return RangePublisher.of(folder, module, volume, request, live ? null : hashes, points);
    }

    /**
     * Checks and records the start of a copy: the module must not run here, and a volume that holds data is
     * emptied only if a take put it here. Returns the folder, made and emptied, ready for the copy. {@code delta}
     * (a pass after the first) keeps this take's copy if it is here, to send only what
     * differs; without it here the pass empties the volume like a whole copy.
     */
    public Path prepareCopy(String module, String volume, String kind, long epoch, boolean delta) {
        TakeRules.name("module", module);
        TakeRules.name("volume", volume);
        TakeRules.kind(kind);
        boolean runs = modules.moduleRuns(module);
        if (!running.cutRunning(module, volume, kind)) {
            throw TakeRefused.conflict("an earlier copy of volume " + volume + " of module " + module
                    + " is still writing here and did not stop; nothing was changed, try again");
        }
        Optional<Path> existing = places.find(module, volume, kind);
        boolean holds = existing.isPresent() && VolumePlaces.holdsData(existing.get());
        boolean keep = delta && existing.isPresent() && TakeRules.keepsCopy(records.read(module), volume, epoch);
        records.update(module, st -> TakeRules.beginCopy(st, volume, epoch, kind, holds, runs));
        Path folder = places.make(module, volume, kind, epoch);
        if (holds && !keep) {
            LOG.infof("emptying volume %s of module %s for the copy of the take at epoch %d", volume, module, epoch);
            VolumePlaces.empty(folder);
        }
        return folder;
    }

    /**
     * Copies the volume from the source agent into {@code folder}; the last line is the outcome. A copy of the
     * same volume asked for later (by a controller that carries the take on after this copy's caller died)
     * cuts this one ({@link RunningCopies}). One pass of a take's copy ({@link VolumeCopy.Pass}: live or fenced, whole
     * or only what differs).
     */
    public CopyProgress copy(String module, String volume, String kind, VolumeCopy.Pass pass, String from, String ticket,
                             Path folder, Consumer<CopyProgress> progress) {
        RunningCopies.Run run = running.begin(module, volume, kind);
        CopyProgress outcome;
        try {
            outcome = copier.copy(from, ticket, module, volume, kind, pass, folder, progress, run);
        } finally {
            running.end(module, volume, kind, run);
        }
        LOG.infof("copy of volume %s of module %s from %s: %s", volume, module, from,
                Boolean.TRUE.equals(outcome.done()) ? outcome.bytes() + " bytes, " + outcome.files() + " entries in "
                        + outcome.seconds() + " s" : outcome.error());
        return outcome;
    }

    /** Deletes this node's copy of the volume for a rollback or a forget-old (the rules say which copies). */
    public void delete(String module, String volume, String kind, long epoch, String reason) {
        TakeRules.name("module", module);
        TakeRules.name("volume", volume);
        TakeRules.kind(kind);
        TakeRules.Reason why = TakeRules.Reason.parse(reason);
        boolean runs = modules.moduleRuns(module);
        boolean declared = TakeRules.declares(modules.declaration(), module);
        TakeState before = records.read(module);
        TakeRules.delete(before, volume, epoch, why, runs, declared);   // refuses before anything is deleted
        if ("container".equals(kind)) {
            List<String> removed = modules.removeStoppedContainers(module);
            if (!removed.isEmpty()) {
                LOG.infof("removed the stopped containers %s of module %s, which held volume %s", removed, module, volume);
            }
        }
        places.delete(module, volume, kind);
        TakeState after = records.update(module, st -> TakeRules.delete(st, volume, epoch, why, runs, declared));
        LOG.infof("deleted volume %s of module %s (%s, epoch %d)", volume, module, reason, epoch);
        if (before.fenced() && !after.fenced()) {
            LOG.infof("lifted the fence of module %s (epoch %d): its take rolled back", module, epoch);
            modules.lifted(module);
        } else if (before.fenced() && before.fence().created() && after.fenced() && !after.fence().created()) {
            LOG.infof("kept module %s fenced (epoch %d) after its take rolled back: the declaration here runs it", module, epoch);
        }
    }

    /** Records the volumes as the copy the take at {@code epoch} left here; each must be here. */
    public void oldCopy(String module, long epoch, List<String> volumes) {
        TakeRules.name("module", module);
        Map<String, String> kinds = places.kinds(module, volumes == null ? List.of() : volumes);
        if (kinds.isEmpty()) {
            throw TakeRefused.bad("volumes must name at least one volume of module " + module);
        }
        records.update(module, st -> TakeRules.oldCopy(st, epoch, kinds));
    }

    /** The module's volumes here (engine volumes and folders), with their size and whether each is an old copy. */
    public List<VolumeView> volumes(String module, List<String> volumeNames, String kind) {
        TakeRules.name("module", module);
        TakeState s = records.read(module);
        List<String> names = new ArrayList<>(volumeNames);
        s.copies().keySet().stream().filter(v -> !names.contains(v)).forEach(names::add);
        s.oldCopies().keySet().stream().filter(v -> !names.contains(v)).forEach(names::add);
        return places.views(module, names.stream().sorted().distinct().toList(), kind, s.oldCopies());
    }

    public VolumePlaces places() {
        return places;
    }

    static String hash(String ticket) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }
}
