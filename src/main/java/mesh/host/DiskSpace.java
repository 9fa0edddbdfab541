package mesh.host;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import mesh.wire.HostStatus;

/**
 * DiskSpace is the free space where a node's volumes live: the engine's data root ({@code engine}: asked of the engine
 * once it answers, as it does not move while the engine runs) and the agent's state dir ({@code state}). Each file
 * system is found once (that reads the mount table); asking it is one statfs. Read by the agent's status (the
 * controller's disk alert) and its metrics.
 */
final class DiskSpace {

    private final Supplier<String> dataRoot;
    private final Path stateDir;
    private volatile Path engineRoot;
    private final Map<Path, FileStore> stores = new ConcurrentHashMap<>();

    /** {@code dataRoot} asks the engine for its data root (it throws while the engine does not answer). */
    DiskSpace(Supplier<String> dataRoot, Path stateDir) {
        this.dataRoot = dataRoot;
        this.stateDir = stateDir;
    }

    /** Each place whose file system answered: its free bytes and its size. */
    List<HostStatus.Disk> places() {
        if (engineRoot == null) {
            try {
                engineRoot = Path.of(dataRoot.get());
            } catch (RuntimeException engineDown) {
                // asked again next time
            }
        }
        List<HostStatus.Disk> out = new ArrayList<>();
        usable(engineRoot).ifPresent(n -> out.add(new HostStatus.Disk("engine", n[0], n[1])));
        usable(stateDir).ifPresent(n -> out.add(new HostStatus.Disk("state", n[0], n[1])));
        return out;
    }

    private Optional<long[]> usable(Path p) {
        try {
            if (p == null) {
                return Optional.empty();
            }
            FileStore store = stores.get(p);
            if (store == null) {
                store = Files.getFileStore(p);
                stores.put(p, store);
            }
            return Optional.of(new long[] {store.getUsableSpace(), store.getTotalSpace()});
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
