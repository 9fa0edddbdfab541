package mesh.wire;

/**
 * VolumeView is one volume of a module on a node ({@code GET /v1/volumes/{module}}): its kind, size, file count
 * and, when it is the copy a take left here, that take's epoch ({@code oldCopyOf}, else null).
 */
public record VolumeView(String volume, String kind, long bytes, long files, Long oldCopyOf) {
}
