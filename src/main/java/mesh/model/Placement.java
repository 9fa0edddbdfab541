package mesh.model;

/**
 * Placement says where a module is meant to run (assigned) and where it runs with its data (taken).
 * Names and routes follow {@code taken}, never only {@code assigned} (docs/design.md, invariant 4).
 */
public record Placement(String module, String assigned, String taken) {
}
