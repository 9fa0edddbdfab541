package mesh.host.take;

import java.time.Clock;
import java.util.List;
import mesh.model.Declaration;
import mesh.wire.TakeCreated;
import org.jboss.logging.Logger;

/**
 * TargetContainers is a take's target creating the module's containers before the source's fence (docs/take.md, "The
 * target's containers, created before the fence"), so that the start after the verify only starts them: the module is
 * fenced here first ({@link TakeRules#fenceToCreate}, recorded before anything is created), then its containers are
 * created as the start declaration the take will send has them, never started. Under the fence no pass starts or
 * removes them, the engine starts nothing by itself (every container's restart policy is {@code no}), and the fence is on
 * disk, so neither an agent nor an engine started again starts them. The start lifts the fence after sending the start
 * declaration; a rollback's delete of this take's copy lifts it, and the next pass removes them as undeclared.
 */
public final class TargetContainers {

    private static final Logger LOG = Logger.getLogger("mesh.host");

    private final TakeRecords records;
    private final ModuleControl modules;
    private final Clock clock;

    TargetContainers(TakeRecords records, ModuleControl modules, Clock clock) {
        this.records = records;
        this.modules = modules;
        this.clock = clock;
    }

    /** Fences {@code module} here at {@code epoch} and creates its containers as {@code declaration} has them, not started. */
    public TakeCreated create(String module, long epoch, Declaration declaration) {
        TakeRules.name("module", module);
        if (declaration == null) {
            throw TakeRefused.bad("a declaration is needed to create the containers of module " + module);
        }
        boolean runs = modules.moduleRuns(module);
        records.update(module, st -> TakeRules.fenceToCreate(st, epoch, clock.instant(), runs));
        List<String> created = modules.createStopped(module, declaration);
        LOG.infof("fenced module %s at epoch %d to create its containers before the take's fence: %s", module, epoch,
                created.isEmpty() ? "nothing created" : "created " + created + ", not started");
        return new TakeCreated(module, epoch, created);
    }
}
