package mesh.model;

/**
 * BackupVolume is one volume of a module a backup holds (docs/backup.md): its manifest name, its kind ({@code container}:
 * an engine volume; {@code process}: a folder), and, once read or restored, its manifest's digest, bytes and files.
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record BackupVolume(String name, String kind, String digest, Long bytes, Long files) {

    public BackupVolume(String name, String kind) {
        this(name, kind, null, null, null);
    }
}
