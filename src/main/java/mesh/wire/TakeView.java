package mesh.wire;

import java.util.List;

/**
 * TakeView is a take as the operator sees it ({@code mesh take}, {@code mesh status}): where it
 * stands, each volume, the copy's progress while it runs, why it failed or is stuck, and for a dry
 * run the steps it would carry out.
 *
 * @param active   a runner carries it out now (false: it ended, or waits for 'mesh take' to carry it on)
 * @param volumes  each volume of the module, with what its copy and verify found
 * @param copy     the copy in progress, or null
 * @param steps    the steps ahead ({@code --dry-run}); empty otherwise
 */
public record TakeView(String module, String from, String to, long epoch, boolean back, mesh.model.TakeStep step,
                       mesh.model.OperationState state,
                       boolean active, List<Volume> volumes, Progress copy, String error, String problem,
                       List<String> notes, List<String> steps) {

    /**
     * Volume is one volume of the take as shown: its manifest name ({@code data}), kind ({@code container}: an engine
     * volume; {@code process}: a folder), the bytes and files the source holds, whether the copy of it is complete, the
     * manifest digests found at verify, and each pass that copied it (the pre-copy's while the module ran, then the
     * delta after the fence). Its JSON is the take record's volume's, field for field (older CLIs read it).
     */
    public record Volume(String name, String kind, long bytes, long files, boolean copied, String sourceDigest,
                         String targetDigest, List<Pass> passes) {

        public Volume {
            passes = passes == null ? List.of() : List.copyOf(passes);
        }

        /** How many passes ran while the module ran (the pre-copy). */
        public int livePasses() {
            return (int) passes.stream().filter(Pass::live).count();
        }
    }

    /**
     * Pass is one pass of a volume's copy: whether the module ran meanwhile ({@code live}: the pre-copy) or was fenced
     * (the delta), the bytes the archive carried, the entries written and deleted on the target, how long it took
     * (seconds), and the source's clock when it began (ms since the epoch).
     */
    public record Pass(boolean live, long bytes, long files, long deleted, double seconds, long since) {
    }

    /** Progress is the copy of one volume: bytes and files so far, the rate, and the seconds left at that rate (-1: unknown). */
    public record Progress(String volume, long bytes, long files, long totalBytes, double rate, long secondsLeft) {
    }
}
