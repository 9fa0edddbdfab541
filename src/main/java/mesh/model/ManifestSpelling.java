package mesh.model;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * ManifestSpelling answers an unknown field with the known one it was most likely meant to be
 * ({@code imgae} → {@code image}, {@code stop_timeout} → {@code stop-timeout}), or else lists the
 * known fields. Written by hand: the edit distance is a dozen lines, and the maintained one
 * (commons-text) is not on the classpath while commons-lang3's copy is deprecated.
 */
final class ManifestSpelling {

    private ManifestSpelling() {
    }

    /** ", did you mean 'image'?" or " (known here: a, b, c)". */
    static String suggestion(String unknown, List<String> known) {
        String typed = unknown.toLowerCase(Locale.ROOT);
        return known.stream()
                .filter(k -> distance(typed, k) <= (k.length() <= 4 ? 1 : 2))
                .min(Comparator.comparingInt(k -> distance(typed, k)))
                .map(k -> ", did you mean '" + k + "'?")
                .orElse(" (known here: " + String.join(", ", known) + ")");
    }

    /**
     * The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
     * neighbouring letters each count one, so {@code imgae} is one step from {@code image}.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
