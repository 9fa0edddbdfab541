package mesh.wire;

import java.util.List;

/**
 * StateBackupsView is what the controller knows of the seat's state backups ({@code GET /v1/mesh/state-backups};
 * docs/rebuild.md): whether a recovery passphrase is set on the seat, and the newest state backups, newest first.
 * {@code mesh status} says from it how old the newest is and where, or that the mesh cannot be rebuilt.
 *
 * @param passphraseSet null when the controller cannot tell (it runs without the seat's install folder)
 */
public record StateBackupsView(Boolean passphraseSet, List<Entry> backups) {

    /** Entry is one state backup: when it was made (ISO-8601), where it is ({@code file:/path}), its size in bytes. */
    public record Entry(String made, String place, long bytes) {
    }
}
