package mesh.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CatalogueCheckRulesTest: the check {@code catalogue add} and {@code catalogue check} share reports a
 * bad file and what the good files cannot hold together in one run, and reads a good set whole.
 */
class CatalogueCheckRulesTest {

    static final String GOOD = "module: good\ncomponents:\n  good.web: {image: busybox}\n";

    @Test
    void aBadFileDoesNotHideAClashBetweenTheOthers() {
        CatalogueCheck.Result r = CatalogueCheck.of(List.of(new CatalogueCheck.File("one.yaml", GOOD),
                new CatalogueCheck.File("bad.yaml", "module: bad\ncomponents:\n  bad.web: {imgae: busybox}\n"),
                new CatalogueCheck.File("two.yaml", GOOD)));
        assertFalse(r.ok());
        assertEquals(List.of("bad.yaml:3:13: components.bad.web.imgae: unknown field, did you mean 'image'?",
                "bad.yaml:3:3: components.bad.web.image: is required (an image reference like nginx:1.27), or bundle: NAME[:TAG] for a process",
                "two.yaml:1:9: module good is also defined in one.yaml:1:9"), r.problems());
        assertEquals(List.of("one.yaml", "two.yaml"), r.sources().stream().map(Manifests.Source::file).toList());
    }

    @Test
    void aGoodSetIsReadInTheOrderGiven() {
        CatalogueCheck.Result r = CatalogueCheck.of(List.of(new CatalogueCheck.File("b.yaml", GOOD.replace("good", "b")),
                new CatalogueCheck.File("a.yaml", GOOD.replace("good", "a"))));
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(List.of("b", "a"), r.sources().stream().map(s -> s.manifest().module()).toList());
    }

    @Test
    void nothingGivenIsAProblem() {
        assertEquals(List.of("no manifest given"), CatalogueCheck.of(List.of()).problems());
    }
}
