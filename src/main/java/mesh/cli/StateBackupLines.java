package mesh.cli;

import java.time.Instant;
import java.util.Optional;
import mesh.wire.StateBackupsView;

/**
 * StateBackupLines says what {@code mesh status} says of the seat's state backups (docs/rebuild.md): how old the newest
 * is and where it is, or, as a warning, that the mesh cannot be rebuilt (no recovery passphrase set, or no state backup
 * made yet). A controller older than state backups answers nothing and gets nothing said.
 */
final class StateBackupLines {

    private StateBackupLines() {
    }

    /** The warning that the mesh cannot be rebuilt from a state backup, when it cannot. */
    static Optional<String> warning(StateBackupsView view) {
        if (view == null) {
            return Optional.empty();
        }
        if (Boolean.FALSE.equals(view.passphraseSet())) {
            return Optional.of("warning: the mesh cannot be rebuilt if the seat is lost: no recovery passphrase is set"
                    + " (set one on the seat with 'mesh seat passphrase', then 'mesh seat backup --to FILE'; docs/rebuild.md)");
        }
        if (view.backups() == null || view.backups().isEmpty()) {
            return Optional.of("warning: the mesh cannot be rebuilt if the seat is lost: no state backup has been made"
                    + " (make one on the seat with 'mesh seat backup --to FILE'; docs/rebuild.md)");
        }
        return Optional.empty();
    }

    /** {@code state backup: newest made 2026-12-05 10:00:03 UTC, 3 h ago, at file:/mnt/usb/mesh.backup (412 KiB)}. */
    static Optional<String> newest(StateBackupsView view, Instant now) {
        if (view == null || view.backups() == null || view.backups().isEmpty()) {
            return Optional.empty();
        }
        StateBackupsView.Entry e = view.backups().get(0);
        return Optional.of("state backup: newest made " + Times.when(e.made(), now) + ", at " + e.place()
                + " (" + (e.bytes() + 1023) / 1024 + " KiB)");
    }
}
