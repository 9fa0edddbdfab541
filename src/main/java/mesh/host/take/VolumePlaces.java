package mesh.host.take;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import mesh.docker.Engine;
import mesh.model.Labels;

/**
 * VolumePlaces finds where a module volume's data lies on this machine and makes, empties and deletes it
 * for a take. A {@code container} volume is the engine volume {@code <module>_<volume>} (its folder is the
 * engine's Mountpoint: the agent runs as root in the node's mount namespace); a {@code process} volume is
 * the folder {@code <state-dir>/volumes/<module>_<volume>} the supervisor gives the process.
 */
public final class VolumePlaces {

    /** The label a take's copy carries on the engine: the epoch of the take that made it. */
    public static final String TAKE_EPOCH = "mesh.take-epoch";

    private final Engine engine;
    private final Path stateDir;
    private final String node;

    public VolumePlaces(Engine engine, Path stateDir, String node) {
        this.engine = engine;
        this.stateDir = stateDir;
        this.node = node;
    }

    /** The engine's (and the folder's) name of a module volume. */
    static String engineName(String module, String volume) {
        return module + "_" + volume;
    }

    /** The volume's folder, if the volume exists here. */
    public Optional<Path> find(String module, String volume, String kind) {
        if ("process".equals(kind)) {
            Path folder = processFolder(module, volume);
            return Files.isDirectory(folder) ? Optional.of(folder) : Optional.empty();
        }
        return engine.inspectVolume(engineName(module, volume)).map(v -> Path.of(v.mountpoint()));
    }

    /** The volume's folder, or a 404 naming it. */
    public Path require(String module, String volume, String kind) {
        return find(module, volume, kind).orElseThrow(() -> new TakeRefused(404, "module " + module + " has no "
                + kind + " volume " + volume + " on this node"));
    }

    /** Makes the volume for a copy at {@code epoch} if it is missing (labelled with the epoch); returns its folder. */
    public Path make(String module, String volume, String kind, long epoch) {
        if ("process".equals(kind)) {
            Path folder = processFolder(module, volume);
            try {
                Files.createDirectories(folder);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make the folder of volume " + volume + ": " + e.getMessage(), e);
            }
            return folder;
        }
        String name = engineName(module, volume);
        if (engine.inspectVolume(name).isEmpty()) {
            Map<String, String> labels = new HashMap<>(Labels.forVolume(node, module));
            labels.put(TAKE_EPOCH, Long.toString(epoch));
            engine.createVolume(name, labels);
        }
        return require(module, volume, kind);
    }

    /** Whether the folder holds anything. */
    public static boolean holdsData(Path folder) {
        try (Stream<Path> inside = Files.list(folder)) {
            return inside.findAny().isPresent();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Deletes everything inside the folder (links are deleted, never followed); the folder itself stays. */
    public static void empty(Path folder) {
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    if (!dir.equals(folder)) {
                        Files.delete(dir);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the volume: the engine volume, or the folder and everything in it. Nothing when it is not there. */
    public void delete(String module, String volume, String kind) {
        if ("process".equals(kind)) {
            Path folder = processFolder(module, volume);
            if (Files.isDirectory(folder)) {
                empty(folder);
                try {
                    Files.delete(folder);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + folder + ": " + e.getMessage(), e);
                }
            }
            return;
        }
        String name = engineName(module, volume);
        if (engine.inspectVolume(name).isPresent()) {
            engine.removeVolume(name);
        }
    }

    /** The free space of the engine's data root and of the state dir. */
    public mesh.wire.DiskView disk() {
        mesh.wire.DiskView.Place root = place(Path.of(engine.dataRoot()));
        mesh.wire.DiskView.Place state = place(stateDir);
        mesh.wire.DiskView.Place tighter = root.free() <= state.free() ? root : state;
        return new mesh.wire.DiskView(tighter.path(), tighter.free(), root, state);
    }

    private static mesh.wire.DiskView.Place place(Path path) {
        try {
            Path existing = path;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            return new mesh.wire.DiskView.Place(path.toString(), Files.getFileStore(existing == null ? Path.of("/") : existing)
                    .getUsableSpace());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the free space of " + path + ": " + e.getMessage(), e);
        }
    }

    private Path processFolder(String module, String volume) {
        return stateDir.resolve("volumes").resolve(engineName(module, volume));
    }

    /** The kind of each of the module's {@code volumes} here (a container volume first, then a process's folder). */
    java.util.Map<String, String> kinds(String module, java.util.List<String> volumes) {
        Map<String, String> kinds = new java.util.TreeMap<>();
        for (String volume : volumes) {
            TakeRules.name("volume", volume);
            String kind = find(module, volume, "container").isPresent() ? "container"
                    : find(module, volume, "process").isPresent() ? "process" : null;
            if (kind == null) {
                throw new TakeRefused(404, "module " + module + " has no volume " + volume + " on this node");
            }
            kinds.put(volume, kind);
        }
        return kinds;
    }

    /** The views of the module's volumes named (of {@code kind}, or both kinds), with size and whether each is an old copy. */
    java.util.List<mesh.wire.VolumeView> views(String module, java.util.List<String> names, String kind,
                                               Map<String, TakeState.Mark> oldCopies) {
        java.util.List<mesh.wire.VolumeView> views = new java.util.ArrayList<>();
        for (String volume : names) {
            for (String k : kind == null ? java.util.List.of("container", "process") : java.util.List.of(TakeRules.kind(kind))) {
                Optional<Path> folder = find(module, TakeRules.name("volume", volume), k);
                if (folder.isPresent()) {
                    VolumeScan.Totals m = VolumeScan.totals(folder.get());
                    TakeState.Mark old = oldCopies.get(volume);
                    views.add(new mesh.wire.VolumeView(volume, k, m.bytes(), m.files(), old == null ? null : old.epoch()));
                }
            }
        }
        return views;
    }

    /** Deletes {@code path} under {@code folder} (a folder with all under it), links never followed; how many entries. */
    static long deleteUnder(Path folder, String path) throws IOException {
        Path p = folder.resolve(path).normalize();
        if (!p.startsWith(folder) || p.equals(folder)) {
            throw new IOException("'" + path + "' is not inside the volume");
        }
        if (!java.nio.file.Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        long[] n = new long[1];
        java.nio.file.Files.walkFileTree(p, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) throws IOException {
                java.nio.file.Files.delete(f);
                n[0]++;
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                java.nio.file.Files.delete(d);
                n[0]++;
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return n[0];
    }
}
