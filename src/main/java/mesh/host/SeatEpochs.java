package mesh.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import mesh.host.records.DurableFile;
import mesh.plan.SeatEpoch;

/**
 * SeatEpochs is the agent's record of the newest controller it heard from ({@link SeatEpoch}, the rule), kept in
 * {@code controller-epoch} in its state directory so that an agent restarted after a promote still refuses the
 * deposed seat. Judged only after the caller proved to be the mesh's controller ({@link HostApiGuard}): an epoch
 * is raised by the controller's certificate, never by anyone who can reach the port.
 */
final class SeatEpochs {

    static final String FILE = "controller-epoch";

    private final Path file;
    private SeatEpoch newest;

    SeatEpochs(Path stateDir) {
        this.file = stateDir.resolve(FILE);
        SeatEpoch read = SeatEpoch.NONE;
        try {
            if (Files.exists(file)) {
                read = SeatEpoch.parse(Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
        }
        this.newest = read;
    }

    /** The newest controller heard from. */
    synchronized SeatEpoch newest() {
        return newest;
    }

    /**
     * Hears a call from {@code caller}: keeps it if it is newer (written before the call goes on), and returns why
     * the call is refused when it would change something ({@code change}) and comes from an older controller, else null.
     */
    synchronized String hear(SeatEpoch caller, boolean change) {
        SeatEpoch next = newest.after(caller);
        if (!next.equals(newest)) {
            write(next);
            newest = next;
        }
        return change ? newest.refusal(caller) : null;
    }

    private void write(SeatEpoch next) {
        try {
            // durably, as a declaration is (its folder made, fsync, atomic rename, fsync of the folder): a power cut right
            // after a promoted seat's first call must not bring the deposed seat's epoch back
            DurableFile.write(file, (next.line() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the controller's epoch in " + file + ": " + e.getMessage(), e);
        }
    }
}
