package mesh.wire;

/** TakeEpoch is the body of the take calls that carry only the take's epoch (fence, ticket): {@code {"epoch": E}}. */
public record TakeEpoch(long epoch) {
}
