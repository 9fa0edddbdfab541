package mesh.wire;

/** BackupVerifyRequest asks an agent to fetch a backup and check every blob against its manifest (docs/backup.md). */
public record BackupVerifyRequest(String registry, String repository, String reference) {
}
