package mesh.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * FileProblem says in words why a file the operator named could not be read. The JDK's file
 * exceptions carry only the path as their message ("cannot read x.json: x.json"), the reason being
 * their type.
 */
final class FileProblem {

    private FileProblem() {
    }

    /** "cannot read FILE: REASON", the reason in words. */
    static String cannotRead(Object file, IOException e) {
        return "cannot read " + file + ": " + reason(e);
    }

    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "a part of the path is not a folder";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if ("Is a directory".equals(e.getMessage())) {
            return "it is a folder, not a file";
        }
        return e.getMessage() == null ? "it cannot be read" : e.getMessage();
    }
}
