package mesh.cli;

import java.util.Locale;
import mesh.plan.Bytes;
import mesh.wire.TakeView;

/**
 * TakeLines words a take for the operator: its step, the copy's progress as a plain line (a log, a
 * pipe) or as a bar (a terminal), and how it ended. Pure, so the words are tested without a controller.
 */
final class TakeLines {

    private TakeLines() {
    }

    /** The first line: what is taken where. */
    static String head(TakeView t) {
        return (t.back() ? "taking " + t.module() + " back from " + t.from() + " to " + t.to()
                : "taking " + t.module() + (t.from() == null ? " (it runs nowhere)" : " from " + t.from()) + " to " + t.to())
                + (t.epoch() > 0 ? " (epoch " + t.epoch() + ")" : "");
    }

    /** One line of the copy: {@code copy data: 120 MB of 200 MB, 1234 files, 45 MB/s, about 2 s left}. */
    static String progress(TakeView.Progress p) {
        return "copy " + p.volume() + ": " + Bytes.human(p.bytes()) + (p.totalBytes() > 0 ? " of " + Bytes.human(p.totalBytes()) : "")
                + ", " + p.files() + (p.files() == 1 ? " file" : " files") + ", " + Bytes.human((long) p.rate()) + "/s"
                + (p.secondsLeft() >= 0 ? ", about " + duration(p.secondsLeft()) + " left" : "");
    }

    /** The same as a bar of {@code width} cells, for a terminal: {@code [#####.....]  50% copy data: ...}. */
    static String bar(TakeView.Progress p, int width) {
        double share = p.totalBytes() > 0 ? Math.min(1, (double) p.bytes() / p.totalBytes()) : 0;
        int full = (int) Math.round(share * width);
        return "[" + "#".repeat(full) + ".".repeat(width - full) + "] " + String.format(Locale.ROOT, "%3d%%", Math.round(share * 100))
                + " " + progress(p);
    }

    /**
     * One pass of a volume's copy, once it went through: {@code pass 1 data (module running): 2.0 GB, 5001 files
     * in 14.2 s}; the pass after the fence is the delta: {@code delta data (module stopped): 20 MB, 41 files, 3
     * deleted in 0.4 s}.
     */
    static String pass(String volume, int number, TakeView.Pass p) {
        return (p.live() ? "pass " + number + " " + volume + " (module running)" : "delta " + volume + " (module stopped)")
                + ": " + Bytes.human(p.bytes()) + ", " + p.files() + (p.files() == 1 ? " file" : " files")
                + (p.deleted() > 0 ? ", " + p.deleted() + " deleted" : "")
                + String.format(Locale.ROOT, " in %.1f s", p.seconds());
    }

    static String duration(long seconds) {
        return seconds < 120 ? seconds + " s" : seconds < 7200 ? seconds / 60 + " min" : seconds / 3600 + " h";
    }

    /**
     * The steps to say when a take was seen at {@code last} and now stands at {@code now}: every forward
     * step it must have gone through in between (a poll misses steps quicker than it), then {@code now};
     * only {@code now} on a rollback's way, whose path depends on what failed. Ended steps are not said.
     */
    static java.util.List<String> stepsSince(TakeView t, mesh.model.TakeStep from, mesh.model.TakeStep to) {
        java.util.List<String> said = new java.util.ArrayList<>();
        boolean forward = t.error() == null && to.ordinal() <= mesh.model.TakeStep.DONE.ordinal()
                && (from == null || from.ordinal() < to.ordinal());
        if (forward) {
            boolean copies = t.from() != null && !t.volumes().isEmpty();
            for (mesh.model.TakeStep s : mesh.model.TakeStep.values()) {
                boolean applies = switch (s) {
                    case FENCE -> t.from() != null;
                    case PRE_COPY -> copies && t.volumes().stream().anyMatch(v -> v.livePasses() > 0);
                    case TICKET, COPY, VERIFY, OLD_COPY -> copies;
                    case LOSE, RESTORE -> false;   // a restore's, never a take's
                    default -> true;
                };
                if (applies && (from == null || s.ordinal() > from.ordinal()) && s.ordinal() < to.ordinal()) {
                    said.add(s.word());
                }
            }
        }
        if (!to.ended()) {
            said.add(to.word());
        }
        return said;
    }

    /** The last line: done, rolled back with why, or waiting with why and how to carry it on. */
    static String end(TakeView t) {
        return switch (t.state()) {
            case DONE -> t.module() + " runs on " + t.to() + "; its names and routes resolve there"
                    + (t.from() == null ? "" : "; " + t.from() + " keeps the old copy until 'mesh take --forget-old " + t.module() + "'");
            case ROLLED_BACK -> "the take failed and was rolled back: " + t.error()
                    + (t.from() == null ? "" : "; " + t.module() + " runs on " + t.from() + " again")
                    + (t.problem() == null ? "" : "; but " + t.problem());
            case FAILED -> "the take failed: " + t.error() + "; nothing was changed";
            default -> "the take waits at step " + t.step() + (t.problem() == null ? "" : ": " + t.problem())
                    + (t.error() == null ? "" : " (rolling back: " + t.error() + ")")
                    + "; 'mesh take " + t.to() + " " + t.module() + "' carries it on";
        };
    }
}
