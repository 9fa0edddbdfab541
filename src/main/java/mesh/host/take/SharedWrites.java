package mesh.host.take;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * SharedWrites names the files that some process on this machine maps shared and writable ({@code mmap} with
 * {@code MAP_SHARED} and {@code PROT_WRITE}: LMDB with its write map, a database's shared memory file, an index
 * written in place), by their inodes, from every {@code /proc/PID/maps}. A take's hash cache must keep no hash of
 * such a file ({@link VolumeScan}): a store through the mapping into a page that is already dirty changes neither
 * mtime nor ctime (Linux sets them on the first write fault after the page was written back, up to half a minute
 * before), so a hash kept under the file's key would outlive the bytes it was taken over, and a take's verify
 * would pass over a copy that lacks the module's last writes. A mapping made after this look cannot hide a write
 * that way: its first store faults and sets the file's times. Matched by inode alone: another file system's file
 * with the same inode number only costs a read, never a wrong hash.
 */
final class SharedWrites {

    private static final Path PROC = Path.of("/proc");

    private SharedWrites() {
    }

    /** The inodes of the files mapped shared and writable in one process's {@code maps} text. */
    static Set<Long> inodes(String maps) {
        Set<Long> inodes = new HashSet<>();
        for (String line : maps.split("\n")) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length == 6 && f[1].length() == 4 && f[1].charAt(1) == 'w' && f[1].charAt(3) == 's') {
                try {
                    long ino = Long.parseLong(f[4]);
                    if (ino != 0) {
                        inodes.add(ino);
                    }
                } catch (NumberFormatException notMaps) {
                    // not a line of maps: skipped
                }
            }
        }
        return inodes;
    }

    /**
     * The inodes of the files any process here maps shared and writable now. A process that ends while it is read is
     * skipped, as one this agent may not read (the agent runs as root: every one it may).
     */
    static Set<Long> now() {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (Path pid : pids) {
                try {
                    inodes.addAll(inodes(Files.readString(pid.resolve("maps"))));
                } catch (IOException | SecurityException gone) {
                    // the process ended, or is not ours to read
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + PROC + ": " + e.getMessage(), e);
        }
        return inodes;
    }
}
