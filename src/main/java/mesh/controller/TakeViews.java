package mesh.controller;

import java.util.List;
import mesh.plan.Take;
import mesh.wire.TakeView;

/**
 * TakeViews shows a take record's volumes on the wire ({@link TakeView.Volume}), field for field, so the wire knows no
 * plan: the take's record may change for its runner while what {@code mesh take} and {@code mesh status} read stays.
 */
final class TakeViews {

    private TakeViews() {
    }

    static List<TakeView.Volume> volumes(List<Take.Volume> volumes) {
        return volumes.stream().map(TakeViews::volume).toList();
    }

    static TakeView.Volume volume(Take.Volume v) {
        return new TakeView.Volume(v.name(), v.kind(), v.bytes(), v.files(), v.copied(), v.sourceDigest(), v.targetDigest(),
                v.passes().stream().map(p -> new TakeView.Pass(p.live(), p.bytes(), p.files(), p.deleted(), p.seconds(), p.since()))
                        .toList());
    }
}
