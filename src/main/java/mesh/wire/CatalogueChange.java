package mesh.wire;

import java.util.List;

/** CatalogueChange is the answer to {@code catalogue add}: which modules it added and which it updated. */
public record CatalogueChange(List<String> added, List<String> updated) {
}
