package mesh.controller;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * WireReflection registers for the native image the mesh.wire records of the node lifecycle and
 * catalogue verbs ({@code node set}, {@code node token}, {@code catalogue show}); the older wire
 * records are in mesh.NativeReflection. Kept apart so that branches adding records there and here do not collide.
 */
@RegisterForReflection(targets = {
    mesh.wire.NodeChange.class,
    mesh.wire.NodeToken.class,
    mesh.wire.ModuleDetail.class,
})
final class WireReflection {

    private WireReflection() {
    }
}
