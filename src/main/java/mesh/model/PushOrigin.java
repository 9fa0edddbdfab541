package mesh.model;

/**
 * PushOrigin is which push sent a declaration, as the controller names it in the declaration's
 * optional {@code push} field and the host agent keeps it in its record: the audit trail's id of
 * the push ({@code mesh audit} shows it), the name of the operator token that made it (or
 * {@code controller} for the controller's own), and, for a take's push, the take's module and
 * epoch. So a host's records say who changed what ran there, and join the controller's audit by
 * {@code id}. Never part of any digest: naming a push changes nothing on the node.
 *
 * @param id    the audit trail's id of the push's record, 1 or more
 * @param by    the operator token's name, or {@code controller}
 * @param take  the module of the take that pushed it, or null
 * @param epoch that take's epoch, or null
 */
public record PushOrigin(long id, String by, String take, Long epoch) {

    /** A push an operator (or the controller on its own) made. */
    public static PushOrigin of(long id, String by) {
        return new PushOrigin(id, by, null, null);
    }

    /** A push a take made, recorded under {@code by} (the controller: a take runs on its own). */
    public static PushOrigin ofTake(long id, String by, String module, long epoch) {
        return new PushOrigin(id, by, module, epoch);
    }

    /** How {@code mesh host history} says it: "pushed by alice (push 42)". */
    public String words() {
        return "pushed by " + by + (take == null ? "" : " for the take of " + take + ", epoch " + epoch)
                + " (push " + id + ")";
    }
}
