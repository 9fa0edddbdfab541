package mesh.model;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JsonSyntax says what is wrong with a JSON text's syntax in the words of a person who wrote it by
 * hand (a missing comma, a string without its closing quote, a file that is not JSON at all),
 * instead of the reader's ("Unexpected character ('}' (code 125)): was expecting double-quote to
 * start field name", with its settings and source in brackets). What it does not know it passes on
 * cleaned of the reader's internals.
 */
final class JsonSyntax {

    private JsonSyntax() {
    }

    private static final String A_VALUE = "a value (a string in double quotes, a number, a list [...], a mapping {...}, "
            + "true, false or null)";

    private record Rule(Pattern pattern, String words) {
    }

    /** The reader's messages this class knows, after {@link #withoutSource}; groups fill the words' {@code $n}. */
    private static final List<Rule> RULES = List.of(
            rule("Unexpected character \\('(.*)'\\): was expecting double-quote to start field name",
                    "expected a field name in double quotes, got '$1'"),
            rule("Unexpected character \\('(.*)'\\): was expecting comma to separate Object entries",
                    "expected ',' or '}' after a field's value, got '$1'"),
            rule("Unexpected character \\('(.*)'\\): was expecting comma to separate Array entries",
                    "expected ',' or ']' after a list item, got '$1'"),
            rule("Unexpected character \\('(.*)'\\): was expecting a colon to separate field name and value",
                    "expected ':' after a field name, got '$1'"),
            rule("Unexpected character \\('(.*)'\\): expected a valid value.*", "expected " + A_VALUE + ", got '$1'"),
            rule("Unrecognized token '(.*)': was expecting .*", "expected " + A_VALUE + ", got '$1'"),
            rule("Unexpected end-of-input: expected close marker for Object \\(start marker at (line \\d+, column \\d+)\\)",
                    "the text ends before the '}' that closes the mapping opened at $1"),
            rule("Unexpected end-of-input: expected close marker for Array \\(start marker at (line \\d+, column \\d+)\\)",
                    "the text ends before the ']' that closes the list opened at $1"),
            rule("Unexpected end-of-input.*(?:string value|field name).*", "the text ends inside a string: its closing '\"' is missing"),
            rule("Unexpected end-of-input.*", "the text ends before the document does"),
            rule("Unexpected close marker '(.)': expected '(.)' \\(for (?:Object|Array|root) starting at (line \\d+, column \\d+)\\)",
                    "'$1' where '$2' should close what was opened at $3"),
            rule("Unexpected close marker '(.)': expected '(.)'.*", "'$1' where '$2' should close what was opened before"),
            rule("Illegal unquoted character \\(\\(CTRL-CHAR, code \\d+\\)\\): has to be escaped.*",
                    "a control character (a line break or tab) inside a string: write it escaped, like \\\\n or \\\\t"),
            rule("Illegal character \\(\\(CTRL-CHAR, code (\\d+)\\)\\): only regular white space.*",
                    "a control character (code $1) between values: only spaces, tabs and line breaks may stand there"),
            rule("Unrecognized character escape '(.*)'", "'\\\\$1' is no JSON escape (\\\\\" \\\\\\\\ \\\\/ \\\\b \\\\f \\\\n \\\\r \\\\t \\\\uXXXX)"),
            rule("Document nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)\\)",
                    "nested deeper than $2 levels"),
            rule("Duplicate field '(.*)'", "the field '$1' is given twice"));

    private static Rule rule(String regex, String words) {
        return new Rule(Pattern.compile(regex), words);
    }

    /** The reader's first line in a hand-writer's words. */
    static String words(String message) {
        String m = withoutSource(message == null ? "" : message.lines().findFirst().orElse(""));
        for (Rule r : RULES) {
            Matcher matcher = r.pattern().matcher(m);
            if (matcher.matches()) {
                return matcher.replaceFirst(r.words());
            }
        }
        return m.isEmpty() ? "not JSON" : m;
    }

    /**
     * The message without the reader's internals: its source ({@code [Source: REDACTED
     * ('StreamReadFeature…' disabled); line: 1, column: 48]} becomes {@code line 1, column 48}),
     * character codes, and the settings it names ({@code , from `StreamReadConstraints…`}).
     */
    static String withoutSource(String message) {
        return message
                .replaceAll("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2")
                .replaceAll("\\[Source: [^\\]]*\\]", "")
                .replaceAll(" \\(code -?\\d+\\)", "")
                .replaceAll(", from `[^`]*`", "")
                .replaceAll(" \\(through reference chain: [^)]*\\)", "")
                .replaceAll("[`]?(?:Stream|Json)(?:Read|Write)Feature\\.[A-Z_]+[`]?", "a reader setting")
                .strip();
    }
}
