/**
 * mesh.host.backup is the host agent's side of backups (docs/backup.md, "On the nodes"): a module's volumes go to
 * the mesh's registry as an OCI artifact, one blob per distinct file content, keyed by the sha256 the take's volume
 * manifest already has, and come back from it into a take's copy, checked against that manifest.
 *
 * <pre>
 *  volume ─► VolumeScan (sha256 per file) ─► BackupUpload: HEAD each blob, PUT the missing ones (streamed from disk;
 *                                              small files in packs, a file over 64 MiB in chunks: ChunkedUpload)
 *                                              └─► config (the volumes' manifests) ─► OCI manifest (tag)
 *  registry ─► BackupRestore: each blob (small ones fetched ahead: BlobsAhead), hashed as read ─► a tar stream
 *                                              ─► GNU tar ─► volume ─► VolumeScan = manifest?
 *             large files: written straight into the file tar made (FileFromBlob; a chunked one four chunks at a
 *             time, each at its offset and checked against the config: ChunkedWrite)
 *  registry ─► BackupVerify:  each blob, hashed as read ─► the first file whose content differs
 * </pre>
 */
package mesh.host.backup;
