package mesh.host;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;
import mesh.docker.Engine;
import mesh.host.process.ProcessStatus;
import mesh.host.take.ModuleControl;
import mesh.model.Cidr;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.ProcessState;
import mesh.model.SpecDigest;
import mesh.plan.NetworkRange;

/**
 * ModuleStops is the take's control of a module on this node ({@link ModuleControl}, docs/take.md): stop
 * everything of it, remove its stopped containers, say whether any of it runs. The take's calls run on
 * the agent's loop ({@link HostLoop#onLoop}), so no pass is half-way through starting what they stop;
 * {@link KeepFences}, a pass step, is already on it and stops a fenced module directly ({@link #stopNow}).
 */
final class ModuleStops implements ModuleControl {

    private final String node;
    private final Engine engine;
    private final ProcessComponents processes;
    private final ExecutorService pool;
    private final HostLoop loop;
    private final Supplier<Declaration> desired;
    private final Clock clock;
    private final Consumer<String> stoppedOnPurpose;
    private final Cidr networks;

    ModuleStops(String node, Engine engine, ProcessComponents processes, ExecutorService pool, HostLoop loop,
                Supplier<Declaration> desired, Clock clock) {
        this(node, engine, processes, pool, loop, desired, clock, id -> { });
    }

    /** As above; {@code stoppedOnPurpose} is told each container it stops ({@link ContainerRestarts}: no restart to count). */
    ModuleStops(String node, Engine engine, ProcessComponents processes, ExecutorService pool, HostLoop loop,
                Supplier<Declaration> desired, Clock clock, Consumer<String> stoppedOnPurpose) {
        this(node, engine, processes, pool, loop, desired, clock, stoppedOnPurpose, NetworkRange.DEFAULT);
    }

    /** As above; new module networks (for the containers a take's target creates) take their subnets from {@code networks}. */
    ModuleStops(String node, Engine engine, ProcessComponents processes, ExecutorService pool, HostLoop loop,
                Supplier<Declaration> desired, Clock clock, Consumer<String> stoppedOnPurpose,
                Cidr networks) {
        this.networks = networks;
        this.stoppedOnPurpose = stoppedOnPurpose;
        this.node = node;
        this.engine = engine;
        this.processes = processes;
        this.pool = pool;
        this.loop = loop;
        this.desired = desired;
        this.clock = clock;
    }

    @Override
    public List<String> stopModule(String module) {
        return loop.onLoop("stopping module " + module, "stop module " + module, () -> stopNow(module));
    }

    /** Stops every running container and process of the module, each with its declared stop timeout, on this thread. */
    List<String> stopNow(String module) {
        Declaration d = desired.get();
        List<String> stopped = new ArrayList<>();
        List<Future<?>> stops = new ArrayList<>();
        for (ObservedContainer o : engine.list(node)) {
            if (module.equals(o.module()) && o.running()) {
                Duration grace = d == null ? null : d.component(o.name())
                        .map(c -> Duration.ofSeconds(c.stopTimeout())).orElse(null);
                stoppedOnPurpose.accept(o.id());
                stops.add(pool.submit(() -> engine.stop(o.id(), grace)));
                stopped.add(o.name());
            }
        }
        for (ProcessStatus s : processes.status(clock.instant())) {
            if (module.equals(s.module()) && s.state() != ProcessState.EXITED) {
                processes.supervisor().stop(s.component(), clock.instant());
                stopped.add(s.component());
            }
        }
        for (Future<?> f : stops) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HostFailure("interrupted while stopping module " + module, e);
            } catch (ExecutionException e) {
                throw new HostFailure(e.getCause().getMessage(), e.getCause());
            }
        }
        return stopped.stream().sorted().toList();
    }

    @Override
    public List<String> removeStoppedContainers(String module) {
        return loop.onLoop("removing the containers of module " + module, "remove the containers of module " + module, () -> {
            List<String> removed = new ArrayList<>();
            for (ObservedContainer o : engine.list(node)) {
                if (module.equals(o.module()) && !o.process() && !o.running()) {
                    engine.remove(o.id());
                    removed.add(o.name());
                }
            }
            return removed;
        });
    }

    @Override
    public boolean moduleRuns(String module) {
        boolean container = engine.list(node).stream().anyMatch(o -> module.equals(o.module()) && o.running());
        return container || processes.status(clock.instant()).stream().anyMatch(s -> module.equals(s.module()) && s.state().runs());
    }

    @Override
    public Declaration declaration() {
        return desired.get();
    }

    @Override
    public List<String> createStopped(String module, Declaration d) {
        if (!node.equals(d.node())) {
            throw new HostFailure("the declaration is for node " + d.node() + ", not " + node);
        }
        return loop.onLoop("creating the containers of module " + module, "create the containers of module " + module, () -> {
            List<ComponentSpec> mine = d.components().stream().filter(c -> module.equals(c.module()) && !c.process())
                    .toList();
            for (ComponentSpec c : mine) {
                for (String volume : ContainerRequest.of(c, d.address()).mounts().keySet()) {
                    if (engine.inspectVolume(volume).isEmpty()) {
                        return List.<String>of();   // the take's copy makes its volumes: none is made here
                    }
                }
            }
            Map<String, ObservedContainer> here = new HashMap<>();
            engine.list(node).stream().filter(o -> module.equals(o.module()) && !o.process()).forEach(o -> here.put(o.name(), o));
            ModuleNetworks made = new ModuleNetworks(engine, networks, HostNetworks::read);
            List<String> created = new ArrayList<>();
            for (ComponentSpec c : mine) {
                ObservedContainer o = here.get(c.name());
                if (o != null && o.running()) {
                    throw new HostFailure("component " + c.name() + " of module " + module + " runs here: nothing is created");
                }
                if (o != null && SpecDigest.changes(o, ContainerRequest.of(c, d.address())).isEmpty()) {
                    continue;   // created before, as the declaration has it
                }
                if (o != null) {
                    engine.remove(o.id());
                }
                if (c.network() != null) {
                    made.ensure(c.network(), node, module);
                }
                String id = engine.create(ContainerRequest.declared(c, d));
                stoppedOnPurpose.accept(id);   // its first start, after the take's verify, is no restart
                created.add(c.name());
            }
            return created;
        });
    }

    @Override
    public void lifted(String module) {
        loop.wake();
    }
}
