package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DeclarationErrorWordsTest: a declaration written by hand is refused in its writer's words, each
 * problem with its line and column, all of them at once where the text can still be read, and
 * never with the JSON reader's internals (its source, settings, Java types).
 */
class DeclarationErrorWordsTest {

    static final List<String> LIBRARY_WORDS = List.of("source:", "redacted", "streamreadfeature", "jackson", "java.",
            "deserializationfeature", "code 1", "token", "(json string", "long", "integer", "ctrl-char");

    static List<String> problems(String json) {
        return assertThrows(InvalidInput.class, () -> DeclarationJson.parse(json)).problems();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        an object left open          | {"node": "a", "generation": 1, "components": [ {"name": "x", "image": "busybox"  | malformed JSON: the text ends before the '}' that closes the mapping opened at line 1, column 48 (line 1, column 80)
        a list left open             | {"node": "a", "generation": 1, "components": [                                    | malformed JSON: the text ends before the ']' that closes the list opened at line 1, column 46 (line 1, column 47)
        a trailing comma             | {"node": "a", "generation": 1, }                                                   | malformed JSON: expected a field name in double quotes, got '}' (line 1, column 32)
        a missing comma              | {"node": "a" "generation": 1}                                                      | malformed JSON: expected ',' or '}' after a field's value, got '"' (line 1, column 14)
        a missing comma in a list    | {"node": "a", "generation": 1, "components": [{} {}]}                              | malformed JSON: expected ',' or ']' after a list item, got '{' (line 1, column 50)
        a missing colon              | {"node" "a"}                                                                       | malformed JSON: expected ':' after a field name, got '"' (line 1, column 9)
        a YAML manifest              | module: hello                                                                      | malformed JSON: expected a value (a string in double quotes, a number, a list [...], a mapping {...}, true, false or null), got 'module' (line 1, column 1)
        a comment                    | # a declaration                                                                    | malformed JSON: expected a value (a string in double quotes, a number, a list [...], a mapping {...}, true, false or null), got '#' (line 1, column 1)
        a string left open           | {"node": "a, "generation": 1}                                                      | malformed JSON: expected ',' or '}' after a field's value, got 'g' (line 1, column 15)
        a wrong closer               | {"node": "a", "generation": 1, "components": [}                                    | malformed JSON: '}' where ']' should close what was opened at line 1, column 46 (line 1, column 47)
        text after the end           | {"node": "a", "generation": 1} {}                                                  | malformed JSON: more after the end of the document (line 1, column 32)
        """)
    void aSyntaxErrorIsSaidInWordsWithItsLineAndColumn(String scenario, String json, String expected) {
        assertEquals(List.of(expected), problems(json), scenario);
    }

    @Test
    void everyFieldThatDoesNotFitIsNamedAtOnceWithItsLineAndColumn() {
        String json = """
                {"node": "a",
                 "generation": "one",
                 "components": [{"module": "m", "name": "x", "imgae": "busybox", "ports": ["80"]},
                                {"module": "m", "name": "y", "image": 5, "health": []}],
                 "edge": [],
                 "node": "b",
                 "colour": "blue"}
                """;
        assertEquals(List.of(
                "field 'node': given twice (first on line 1) (line 6, column 2)",
                "field 'generation': expected a whole number, got \"one\" (line 2, column 16)",
                "unknown field 'imgae' in components[0], did you mean 'image'? (line 3, column 46)",
                "field 'components[0].ports[0]': expected a whole number, got \"80\" (line 3, column 76)",
                "field 'components[1].image': expected a string, got 5 (line 4, column 55)",
                "field 'components[1].health': expected a mapping, got a list (line 4, column 68)",
                "field 'edge': expected a mapping, got a list (line 5, column 10)",
                "unknown field 'colour' (known here: address, components, edge, generation, node, push, registry) (line 7, column 2)"),
                problems(json));
    }

    @Test
    void aMissingGenerationIsRequiredAndItsRulesStillFollowOnceTheShapeFits() {
        assertEquals(List.of("field 'generation': is required (line 1, column 1)"), problems("{\"node\": \"a\"}"));
        assertEquals(List.of("component x: image: is required (an image reference), got nothing"),
                problems("{\"node\": \"a\", \"generation\": 1, \"components\": [{\"module\": \"m\", \"name\": \"x\"}]}"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        {"node": "a", "generation": 1, "components": [ {"name": "x", "image": "busybox"
        {"node": "a\tb", "generation": 1}
        {"node": "a", "generation": 1, "components": [}
        {"node": "a", "generation": 1.5, "components": {"a": 1}, "push": {"id": "x"}, "edge": {"routes": 3}}
        {"node": true, "generation": [1], "registry": {}, "address": 7}
        {"node": "a", "generation": 99999999999999999999999}
        [1, 2]
        {"node": "a",\u0000 "generation": 1}
        "a declaration"
        """)
    void noProblemCarriesTheReadersInternals(String json) {
        for (String p : problems(json)) {
            String lower = p.toLowerCase(Locale.ROOT);
            LIBRARY_WORDS.forEach(w -> assertFalse(lower.contains(w), "'" + w + "' in: " + p));
            assertTrue(p.matches(".* \\(line \\d+, column \\d+\\)"), "line and column in: " + p);
        }
    }
}
