package mesh.wire;

/**
 * KeptPush is one push whose input the controller keeps, so that it can be rolled back to
 * ({@code GET /v1/mesh/pushes}, {@code mesh rollback --list}), newest first, with its audit row.
 *
 * @param push       the push's id (the audit trail's)
 * @param verb       {@code push}, or {@code rollback} for a push that was a rollback
 * @param modules    how many modules its catalogue held
 * @param rollbackOf for a rollback, the push it rolled back to; else null
 */
public record KeptPush(long push, String at, String token, String verb, String change, int modules, Long rollbackOf) {
}
