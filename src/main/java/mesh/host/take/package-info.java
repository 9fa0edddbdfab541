/**
 * The host agent's side of {@code mesh take} (docs/take.md, "On the nodes"): fences that keep a module
 * stopped here while its data is read, read tickets, volume manifests, streaming a volume as a tar archive,
 * the target's copy, and the records of the copies a take made or left here.
 *
 * <p>The rules are pure ({@link mesh.host.take.TakeRules}, {@link mesh.host.take.FenceFilter},
 * {@link mesh.host.take.ManifestForm}); the files, the engine, tar and HTTP are thin edges around them.
 */
package mesh.host.take;
