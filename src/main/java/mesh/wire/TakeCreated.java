package mesh.wire;

import java.util.List;

/** TakeCreated answers {@code PUT /v1/fences/{module}/created}: the fence's epoch and the containers created (not started). */
public record TakeCreated(String module, long epoch, List<String> created) {

    public TakeCreated {
        created = created == null ? List.of() : List.copyOf(created);
    }
}
