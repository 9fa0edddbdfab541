package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import mesh.model.DeclarationJson;
import mesh.model.OperationState;
import mesh.model.TakeStep;
import mesh.plan.Take;
import mesh.wire.TakeView;
import org.junit.jupiter.api.Test;

/**
 * TakeViewsTest: a take's volumes cross the wire as {@link TakeView.Volume}, the JSON the take record's volume wrote
 * before the wire had its own record, field for field, so an older CLI reads a newer controller's take and back.
 */
class TakeViewsTest {

    static final Take.Volume COPIED = new Take.Volume("data", "container", 2_000_000_000L, 5001, false, "sha256:aa", "sha256:bb")
            .withPass(new Take.Pass(true, 2_000_000_000L, 5001, 0, 14.25, 1_700_000_000_000L))
            .withPass(new Take.Pass(false, 20_000_000L, 41, 3, 0.5, 1_700_000_060_000L));
    static final Take.Volume FOLDER = new Take.Volume("files", "process", 0, 0, false, null, null);

    @Test
    void eachVolumeIsShownFieldForField() {
        assertEquals(List.of(new TakeView.Volume("data", "container", 2_000_000_000L, 5001, true, "sha256:aa", "sha256:bb",
                        List.of(new TakeView.Pass(true, 2_000_000_000L, 5001, 0, 14.25, 1_700_000_000_000L),
                                new TakeView.Pass(false, 20_000_000L, 41, 3, 0.5, 1_700_000_060_000L))),
                        new TakeView.Volume("files", "process", 0, 0, false, null, null, List.of())),
                TakeViews.volumes(List.of(COPIED, FOLDER)));
        assertEquals(1, TakeViews.volume(COPIED).livePasses());
    }

    @Test
    void aVolumesJsonIsTheTakeRecordsJson() throws Exception {
        for (Take.Volume v : List.of(COPIED, FOLDER)) {
            JsonNode before = DeclarationJson.MAPPER.readTree(DeclarationJson.write(v));
            assertEquals(before, DeclarationJson.MAPPER.readTree(DeclarationJson.write(TakeViews.volume(v))));
            assertEquals(TakeViews.volume(v), DeclarationJson.MAPPER.readValue(before.toString(), TakeView.Volume.class));
        }
        JsonNode pass = DeclarationJson.MAPPER.readTree(DeclarationJson.write(TakeViews.volume(COPIED))).get("passes").get(0);
        assertEquals(List.of("bytes", "deleted", "files", "live", "seconds", "since"), fieldNames(pass));
        assertEquals(List.of("bytes", "copied", "files", "kind", "name", "passes", "sourceDigest", "targetDigest"),
                fieldNames(DeclarationJson.MAPPER.readTree(DeclarationJson.write(TakeViews.volume(COPIED)))));
    }

    @Test
    void aTakeViewReadsBackWithItsVolumes() throws Exception {
        TakeView t = new TakeView("web", "n1", "n2", 7, false, TakeStep.COPY, OperationState.RUNNING, true,
                TakeViews.volumes(List.of(COPIED)), null, null, null, List.of(), List.of());
        assertEquals(t, DeclarationJson.MAPPER.readValue(DeclarationJson.write(t), TakeView.class));
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names.stream().sorted().toList();
    }
}
