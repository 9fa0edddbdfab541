package mesh.wire;

/** ManifestFile is one file of a {@code catalogue add} ({@code POST /v1/mesh/catalogue} takes a list of them). */
public record ManifestFile(String file, String yaml) {
}
