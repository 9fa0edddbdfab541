package mesh.host;

import mesh.model.Declaration;

/** DeclarationRecord is one accepted declaration as the host keeps it: when it came and what it said. */
public record DeclarationRecord(long generation, String receivedAt, Declaration declaration) {
}
