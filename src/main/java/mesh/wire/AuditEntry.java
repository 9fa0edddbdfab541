package mesh.wire;

/**
 * AuditEntry is one line of {@code mesh audit} ({@code GET /v1/mesh/audit}): its id, when
 * (ISO-8601), the name of the operator token that did it ({@code controller} for the controller's
 * own writes), the verb and what changed, in words. A push's id is the one the declarations it
 * sent carry ({@code push.id}), so a host's records join the trail by it (docs/trust.md).
 *
 * @param id null from a controller older than named pushes
 */
public record AuditEntry(Long id, String at, String token, String verb, String change) {
}
