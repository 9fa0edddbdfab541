package mesh.model;

/**
 * ObservedContainer is what the engine reports of one container the mesh owns on this node: only
 * containers that carry the mesh's node label are ever observed, so nothing else is ever touched.
 *
 * @param digest    the spec digest label it was created with
 * @param spec      the canonical spec label it was created with (to say which fields changed)
 * @param running   whether its process runs now
 */
public record ObservedContainer(String id, String name, String module, String digest, String spec,
                                long generation, boolean running) {
}
