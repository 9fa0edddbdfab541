package mesh.wire;

/**
 * AuditEntry is one line of {@code mesh audit} ({@code GET /v1/mesh/audit}): when (ISO-8601), the
 * name of the operator token that did it ({@code controller} for the controller's own writes),
 * the verb and what changed, in words.
 */
public record AuditEntry(String at, String token, String verb, String change) {
}
