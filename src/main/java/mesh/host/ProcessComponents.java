package mesh.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import mesh.bundle.BundleFailure;
import mesh.bundle.BundleFetch;
import mesh.bundle.BundleLimits;
import mesh.bundle.BundleRef;
import mesh.bundle.BundleUnpack;
import mesh.bundle.HttpRegistry;
import mesh.host.process.Backoff;
import mesh.host.process.LinuxProcessHost;
import mesh.host.process.LogFiles;
import mesh.host.process.ProcessRecord;
import mesh.host.process.ProcessSpec;
import mesh.host.process.ProcessStatus;
import mesh.host.process.ProcessSupervisor;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import mesh.plan.BundleRetention;

/**
 * ProcessComponents is the agent's edge to the components of process form ({@code bundle:}): it turns a
 * declared component into what the {@link ProcessSupervisor} runs, fetching and verifying its bundle first
 * ({@link BundleFetch}, cached under {@code <state-dir>/bundles}), and shows the supervisor's records to
 * {@link mesh.plan.HostDiff} as observed components beside the engine's containers.
 *
 * <p>What a process gets, besides its spec's args and env (docs/declaration.md, "Processes"):
 * <ul>
 *   <li>each module volume as the folder {@code <state-dir>/volumes/<module>_<volume>} (the engine's volume
 *       name), in the variable {@code MESH_VOLUME_<VOLUME>} (upper case, other characters as '_'); created when
 *       missing and never deleted by an apply;</li>
 *   <li>{@code MESH_ADDRESS}, the node's mesh address to listen on, when it publishes ports;</li>
 *   <li>its working directory {@code <state-dir>/data/<component>}.</li>
 * </ul>
 * The supervisor's spec digest is the component's spec digest ({@link SpecDigest}, v3), so what HostDiff
 * compares and what the supervisor keeps or replaces cannot disagree.
 */
final class ProcessComponents {

    /** The observed id of a process: not an engine id, so nothing ever sends it to the engine. */
    static final String ID_PREFIX = "process:";
    private static final String SPEC_FILE = "mesh.spec";

    private final Path stateDir;
    private final ProcessSupervisor supervisor;
    private final BundleLimits limits;

    ProcessComponents(Path stateDir, ProcessSupervisor supervisor, BundleLimits limits) {
        this.stateDir = stateDir;
        this.supervisor = supervisor;
        this.limits = limits;
    }

    /** The processes of the agent whose state directory this is, with the supervisor's defaults. */
    static ProcessComponents of(Path stateDir) {
        return new ProcessComponents(stateDir, new ProcessSupervisor(stateDir, new LinuxProcessHost(), Backoff.DEFAULT,
                LogFiles.Limits.DEFAULT), BundleLimits.DEFAULT);
    }

    ProcessSupervisor supervisor() {
        return supervisor;
    }

    /** The supervised components as observed components (id {@code process:PID}), sorted by name. */
    List<ObservedContainer> observe(Instant now) {
        List<ObservedContainer> observed = new ArrayList<>();
        for (ProcessStatus s : supervisor.status(now)) {
            Optional<ProcessRecord> record = supervisor.records().read(s.component());
            if (record.isEmpty()) {
                continue;
            }
            boolean running = s.state() == mesh.model.ProcessState.RUNNING;
            String digest = running ? record.get().digest() : record.get().spec().digest();
            observed.add(new ObservedContainer(ID_PREFIX + s.pid(), s.component(), s.module(), digest,
                    readSpec(s.component()), 0, running, List.of(), true));
        }
        return observed;
    }

    /** Restarts what ended and is due (the supervisor's backoff), rotates logs: on every pass. */
    void reconcile(Instant now) {
        supervisor.reconcile(now, module -> false);
    }

    /**
     * What the supervisor will run for the declared process: its bundle fetched and verified unless its
     * folder is already here, its volumes' folders made. Stops nothing: a failed fetch throws with the
     * reason, and what ran before keeps running.
     */
    ProcessSpec prepare(ComponentSpec c, Declaration d) {
        ContainerRequest request = ContainerRequest.of(c, d.address());
        ProcessSpec spec = spec(c, d, SpecDigest.of(request));
        try {
            Files.createDirectories(supervisor.records().runtimeDir(c.name()));
            Files.writeString(supervisor.records().runtimeDir(c.name()).resolve(SPEC_FILE),
                    SpecDigest.canonical(SpecDigest.CURRENT_VERSION, request));
            for (Path volume : volumes(c).values()) {
                Files.createDirectories(volume);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare its folders under " + stateDir + ": " + e.getMessage(), e);
        }
        return spec;
    }

    /** The supervisor's apply: keeps a matching copy, replaces one of another spec, starts one when due. */
    ProcessSupervisor.Outcome start(ProcessSpec spec, Instant now) {
        ProcessSupervisor.Outcome outcome = supervisor.apply(spec, now);
        if (outcome.action() == ProcessSupervisor.Action.FAILED || outcome.action() == ProcessSupervisor.Action.WAITING) {
            throw new IllegalStateException(outcome.action() + ": " + outcome.detail());
        }
        return outcome;
    }

    /** Stops the process (its stop timeout, then KILL) and forgets it; its volumes and log stay. */
    void remove(String component, Instant now) {
        supervisor.remove(component, now);
    }

    boolean running(String component, Instant now) {
        return supervisor.status(now).stream()
                .anyMatch(s -> s.component().equals(component) && s.state() == mesh.model.ProcessState.RUNNING);
    }

    /** The supervisor's view of every process, for the agent's status. */
    List<ProcessStatus> status(Instant now) {
        return supervisor.status(now);
    }

    /** The supervisor's spec for the component: its bundle unpacked (fetched when not yet here) and its env. */
    private ProcessSpec spec(ComponentSpec c, Declaration d, String digest) {
        BundleRef ref = BundleRef.parse(c.bundle());
        Path dir = stateDir.resolve("bundles").resolve("unpacked").resolve(ref.digest().hex());
        String executable = unpackedEntrypoint(c.name(), dir).orElseGet(() -> fetch(ref, d.registry(), dir));
        Map<String, String> env = new TreeMap<>(c.env());
        volumes(c).forEach((name, path) -> env.put(volumeVariable(name), path.toString()));
        if (!c.ports().isEmpty() && d.address() != null) {
            env.put("MESH_ADDRESS", d.address());
        }
        return new ProcessSpec(c.name(), c.module(), dir.toString(), executable, c.args(), env,
                stateDir.resolve("data").resolve(c.name()).toString(), c.hosts(), c.stopTimeout() * 1000L, digest);
    }

    /** What {@code POST /v1/bundles} asks of this node's bundles ({@link BundleCheck}). */
    mesh.wire.BundlesAnswer missing(mesh.wire.BundlesRequest request) {
        return new BundleCheck(stateDir, this::fetch).missing(request);
    }

    /** The entrypoint the component's record already runs from this folder, when the folder is still there. */
    private Optional<String> unpackedEntrypoint(String component, Path dir) {
        return supervisor.records().read(component)
                .map(ProcessRecord::spec)
                .filter(s -> s.bundleDir().equals(dir.toString()) && Files.isRegularFile(dir.resolve(s.executable())))
                .map(ProcessSpec::executable);
    }

    /** Fetches and verifies the bundle into a fresh folder, then renames it to {@code dir} (content-addressed). */
    String fetch(BundleRef ref, String registry, Path dir) {
        Path fresh = dir.resolveSibling("." + dir.getFileName() + "-" + System.nanoTime());
        try {
            Files.createDirectories(dir.getParent());
            BundleFetch.Bundle bundle = new BundleFetch(new HttpRegistry(registry), stateDir.resolve("bundles"), limits)
                    .fetch(ref, fresh);
            String executable = fresh.relativize(bundle.entrypoint()).toString();
            if (Files.isDirectory(dir)) {
                BundleUnpack.deleteTree(fresh);   // not needed: another pass renamed its twin first
            } else {
                Files.move(fresh, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            return executable;
        } catch (IOException e) {
            BundleUnpack.deleteTree(fresh);   // half made
            throw new BundleFailure("bundle " + ref, BundleFailure.Reason.LOCAL, "cannot keep it in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the bundles {@link BundleRetention} lets go: unpacked folders and cached downloads of digests
     * that neither {@code d} declares nor a supervised process runs from, beyond the few recently used ones.
     * A folder's modification time is its last use: a declared bundle's is renewed (at most once a minute).
     * Returns the digests deleted. Called by the agent's pass, on the same thread as every apply, so no
     * fetch or start races it.
     */
    List<String> clean(Declaration d, Instant now, BundleRetention.Policy policy) {
        Path unpacked = stateDir.resolve("bundles").resolve("unpacked");
        Path cached = stateDir.resolve("bundles").resolve("sha256");
        Set<String> inUse = new TreeSet<>();
        d.components().stream().filter(ComponentSpec::process).map(c -> BundleRef.parse(c.bundle()))
                .filter(BundleRef::pinned).forEach(r -> inUse.add(r.digest().hex()));
        for (String component : supervisor.records().components()) {
            supervisor.records().read(component).ifPresent(r -> inUse.add(Path.of(r.spec().bundleDir()).getFileName().toString()));
        }
        Map<String, Instant> lastUse = new TreeMap<>();
        for (Path dir : List.of(unpacked, cached)) {
            for (Path entry : entries(dir)) {
                Instant used = modified(entry);
                if (inUse.contains(entry.getFileName().toString()) && used.isBefore(now.minusSeconds(60))) {
                    touch(entry, now);
                    used = now;
                }
                lastUse.merge(entry.getFileName().toString(), used, (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        List<BundleRetention.Held> held = lastUse.entrySet().stream()
                .map(e -> new BundleRetention.Held(e.getKey(), e.getValue())).toList();
        List<String> delete = BundleRetention.toDelete(held, inUse, now, policy);
        for (String digest : delete) {
            BundleUnpack.deleteTree(unpacked.resolve(digest));
            BundleUnpack.deleteTree(cached.resolve(digest));
        }
        return delete;
    }

    /** The bundle folders under {@code dir}, named by their digest's hex (half-made hidden ones are not). */
    private static List<Path> entries(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().matches("[0-9a-f]{64}")).toList();
        } catch (IOException e) {
            return List.of();   // unreadable now: nothing is deleted this pass
        }
    }

    private static Instant modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toInstant();
        } catch (IOException e) {
            return Instant.MAX;   // unreadable: treated as just used, so never deleted for its age
        }
    }

    private static void touch(Path p, Instant now) {
        try {
            Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.from(now));
        } catch (IOException e) {
            // its age stays: at worst it is fetched again later
        }
    }

    /** Module volume name to its folder, {@code <state-dir>/volumes/<module>_<volume>}. */
    Map<String, Path> volumes(ComponentSpec c) {
        Map<String, Path> volumes = new TreeMap<>();
        c.volumes().keySet().forEach(v -> volumes.put(v, stateDir.resolve("volumes").resolve(c.module() + "_" + v)));
        return volumes;
    }

    static String volumeVariable(String volume) {
        return ComponentSpec.volumeVariable(volume);
    }

    private String readSpec(String component) {
        try {
            return Files.readString(supervisor.records().runtimeDir(component).resolve(SPEC_FILE));
        } catch (IOException e) {
            return null;   // then a replace says "spec" changed rather than which fields
        }
    }
}
