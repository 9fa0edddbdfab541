package mesh.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;
import mesh.wire.DrainView;

/** DrainLines are {@code mesh drain}'s words: its table, the lines it prints as the drain goes on, and its summary. */
final class DrainLines {

    static final List<String> HEADERS = List.of("MODULE", "STATE", "TARGET", "DOWNTIME", "REASON");

    private DrainLines() {
    }

    static List<List<String>> rows(DrainView d) {
        return d.modules().stream().map(m -> Arrays.asList(m.module(), m.state().word(), m.target(), downtime(m), m.reason())).toList();
    }

    static String downtime(DrainView.Module m) {
        return m.downtimeMs() == null ? null : String.format(java.util.Locale.ROOT, "%.1f s", m.downtimeMs() / 1000.0);
    }

    static String head(DrainView d) {
        return "drain of " + d.node() + (d.targets().isEmpty() ? " onto any node not cordoned" : " onto " + String.join(", ", d.targets()))
                + ", " + d.parallel() + " at a time" + (d.deadline() == null ? "" : ", no take begins after " + d.deadline());
    }

    /** What changed from {@code before} (null: nothing seen yet) to {@code now}, a line each. */
    static List<String> since(DrainView before, DrainView now) {
        List<String> lines = new ArrayList<>();
        DrainStep was = before == null ? DrainStep.CORDON : before.step();
        if (was == DrainStep.CORDON && now.step() != DrainStep.CORDON) {
            lines.add("cordoned " + now.node() + ": no new work goes onto it");
        }
        if ((was == DrainStep.CORDON || was == DrainStep.PLACE) && !now.modules().isEmpty()) {
            long moving = now.modules().stream().filter(m -> m.state() != DrainModuleState.LEFT).count();
            lines.add("placed " + now.modules().size() + " modules: " + moving + " to move, " + (now.modules().size() - moving) + " left");
            now.modules().stream().filter(m -> m.state() == DrainModuleState.LEFT).forEach(m -> lines.add(line(m)));
        }
        Map<String, DrainModuleState> seen = new HashMap<>();
        if (before != null) {
            before.modules().forEach(m -> seen.put(m.module(), m.state()));
        }
        now.modules().stream().filter(m -> seen.containsKey(m.module()) && seen.get(m.module()) != m.state()).forEach(m -> lines.add(line(m)));
        List<String> batch = batch(now);
        List<String> batchBefore = before == null ? List.of() : batch(before);
        if (now.step() == DrainStep.MOVE && !batch.isEmpty() && !batch.equals(batchBefore)) {
            lines.add("moving " + String.join(", ", batch));
        }
        if (!Objects.equals(before == null ? null : before.problem(), now.problem()) && now.problem() != null) {
            lines.add("again: " + now.problem());
        }
        return lines;
    }

    /** The modules the drain moves now: as its plan batches them, the first K pending ones. */
    static List<String> batch(DrainView d) {
        return d.modules().stream().filter(m -> m.state() == DrainModuleState.PENDING).limit(Math.max(1, d.parallel()))
                .map(m -> m.module() + " to " + m.target()).toList();
    }

    /** One module's line: moved where and how long it was down, or why it did not move. */
    static String line(DrainView.Module m) {
        return switch (m.state()) {
            case MOVED -> "moved " + m.module() + " to " + m.target() + (m.downtimeMs() == null ? "" : " (down " + downtime(m) + ")");
            case FAILED -> "failed " + m.module() + (m.target() == null ? "" : " (to " + m.target() + ")") + ": " + m.reason();
            case LEFT -> "left " + m.module() + ": " + m.reason();
            case PENDING -> "pending " + m.module() + " to " + m.target();
        };
    }

    /** The end: what moved, where, its downtime, and what is left and why. */
    static List<String> summary(DrainView d) {
        List<String> lines = new ArrayList<>();
        Map<DrainModuleState, Long> counts = new java.util.EnumMap<>(DrainModuleState.class);
        d.modules().forEach(m -> counts.merge(m.state(), 1L, Long::sum));
        lines.add("drain of " + d.node() + " " + d.state() + ": " + counts.getOrDefault(DrainModuleState.MOVED, 0L) + " moved, "
                + (counts.getOrDefault(DrainModuleState.FAILED, 0L) + counts.getOrDefault(DrainModuleState.LEFT, 0L)
                + counts.getOrDefault(DrainModuleState.PENDING, 0L)) + " left" + (d.error() == null ? "" : "; " + d.error()));
        d.modules().forEach(m -> lines.add("  " + line(m)));
        d.modules().stream().map(DrainView.Module::downtimeMs).filter(Objects::nonNull).max(Long::compare)
                .ifPresent(ms -> lines.add("longest downtime: " + String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0)));
        return lines;
    }
}
