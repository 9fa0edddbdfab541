package mesh.wire;

/**
 * TakeCreate is the body of {@code PUT /v1/fences/{module}/created} on a take's target: the take's epoch and the start
 * declaration the take will send it, whose containers of the module the target creates, never starts, under a fence
 * (docs/take.md, "The target's containers, created before the fence").
 */
public record TakeCreate(long epoch, mesh.model.Declaration declaration) {
}
