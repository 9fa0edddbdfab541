package mesh.wire;

import java.util.List;

/** ApiError is the body of every refused request: one message, and the list when there are several problems. */
public record ApiError(String error, List<String> problems) {
}
