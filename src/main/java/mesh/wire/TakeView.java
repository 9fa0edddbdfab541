package mesh.wire;

import java.util.List;
import mesh.plan.Take;

/**
 * TakeView is a take as the operator sees it ({@code mesh take}, {@code mesh status}): where it
 * stands, each volume, the copy's progress while it runs, why it failed or is stuck, and for a dry
 * run the steps it would carry out.
 *
 * @param active   a runner carries it out now (false: it ended, or waits for 'mesh take' to carry it on)
 * @param copy     the copy in progress, or null
 * @param steps    the steps ahead ({@code --dry-run}); empty otherwise
 */
public record TakeView(String module, String from, String to, long epoch, boolean back, mesh.model.TakeStep step,
                       mesh.model.OperationState state,
                       boolean active, List<Take.Volume> volumes, Progress copy, String error, String problem,
                       List<String> notes, List<String> steps) {

    /** Progress is the copy of one volume: bytes and files so far, the rate, and the seconds left at that rate (-1: unknown). */
    public record Progress(String volume, long bytes, long files, long totalBytes, double rate, long secondsLeft) {
    }
}
