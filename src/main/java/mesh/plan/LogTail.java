package mesh.plan;

import java.util.List;

/**
 * LogTail picks what an operator is shown of a log that several starts of one process append to (the installer's
 * temporary controller): the last lines since the last start's mark, so an error quotes this start's words and never an
 * earlier one's. Pure, so the choice is tested without a process.
 */
public final class LogTail {

    private LogTail() {
    }

    /**
     * The last {@code max} lines of {@code lines} after the last one that starts with {@code mark} (all of them when no
     * line does); trailing blank lines left out.
     */
    public static List<String> sinceLast(List<String> lines, String mark, int max) {
        int from = 0;
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(mark)) {
                from = i + 1;
                break;
            }
        }
        int to = lines.size();
        while (to > from && lines.get(to - 1).isBlank()) {
            to--;
        }
        return List.copyOf(lines.subList(Math.max(from, to - max), to));
    }
}
