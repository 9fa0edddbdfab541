package mesh.wire;

import mesh.model.Manifest;

/**
 * ModuleDetail is one module as {@code mesh catalogue show} ({@code GET /v1/mesh/catalogue/{module}})
 * shows it: the manifest as the controller stored it (checked, in mesh's reading), the file it came
 * from, when it was stored, and where it is assigned and taken (null: nowhere).
 */
public record ModuleDetail(String module, String source, String addedAt, String assigned, String taken,
                           Manifest manifest) {
}
