package mesh.host.take;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RunningArchives keeps the archives a source streams now, per module, with the epoch of the fence each was
 * read under. When that fence is lifted (a rollback: the module starts here again) or replaced by a newer
 * take's, its archives are cut: nothing may go on reading a volume for a take that is over, least of all
 * while the module writes it again. No I/O here: an archive is cut through {@link ArchivePublisher#cut}.
 */
final class RunningArchives {

    private record Running(long epoch, ArchivePublisher archive) {
    }

    private final Map<String, List<Running>> byModule = new HashMap<>();

    synchronized void add(String module, long epoch, ArchivePublisher archive) {
        byModule.computeIfAbsent(module, m -> new ArrayList<>()).add(new Running(epoch, archive));
    }

    synchronized void remove(String module, ArchivePublisher archive) {
        List<Running> list = byModule.get(module);
        if (list != null) {
            list.removeIf(r -> r.archive() == archive);
            if (list.isEmpty()) {
                byModule.remove(module);
            }
        }
    }

    /** Cuts the module's archives read under any fence but {@code keepEpoch} (0: every one); how many were cut. */
    int cut(String module, long keepEpoch, String why) {
        List<ArchivePublisher> cut = new ArrayList<>();
        synchronized (this) {
            for (Running r : byModule.getOrDefault(module, List.of())) {
                if (r.epoch() != keepEpoch) {
                    cut.add(r.archive());
                }
            }
        }
        cut.forEach(a -> a.cut(why));
        return cut.size();
    }

    synchronized int count(String module) {
        return byModule.getOrDefault(module, List.of()).size();
    }
}
