package mesh.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Network;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.RestartPolicy;
import com.github.dockerjava.api.model.Volume;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.SSLConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.RemoteApiVersion;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import mesh.model.ContainerRequest;
import mesh.model.Labels;
import mesh.model.ObservedContainer;

/**
 * DockerEngine is the one real {@link Engine}: docker-java over the httpclient5 transport. API 1.41
 * is pinned because Debian's engine (20.10) refuses newer clients (docs/testbed.md). Two HTTP clients:
 * a short response timeout for every call, and one bounded by the longest stop grace for stops,
 * which legitimately take as long as a database needs to shut down cleanly.
 */
public final class DockerEngine implements Engine {

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
    static final Duration STOP_TIMEOUT_MARGIN = Duration.ofSeconds(30);
    static final Duration LONGEST_STOP = Duration.ofSeconds(3600).plus(STOP_TIMEOUT_MARGIN);
    static final Duration PULL_TIMEOUT = Duration.ofMinutes(10);

    private final String dockerHost;
    private final DockerClient client;
    private final DockerClient slowClient;
    private final DockerClientConfig config;
    /** The client of log streams, made on first use: a follow may be silent for long (see {@link #logs}). */
    private volatile DockerClient streamClient;
    private final AtomicLong writes = new AtomicLong();

    /** A client of the engine at {@code dockerHost}; an address not of the forms {@link mesh.model.EngineAddress} takes is refused by name. */
    public DockerEngine(String dockerHost) {
        String problem = mesh.model.EngineAddress.problem(dockerHost);
        if (problem != null) {
            throw new EngineFailure(problem, null);
        }
        this.dockerHost = dockerHost;
        DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(dockerHost)
                .withApiVersion(RemoteApiVersion.VERSION_1_41)
                .build();
        this.config = config;
        this.client = DockerClientImpl.getInstance(config, http(config, CALL_TIMEOUT));
        this.slowClient = DockerClientImpl.getInstance(config, http(config, LONGEST_STOP));
    }

    private static DockerHttpClient http(DockerClientConfig config, Duration responseTimeout) {
        return new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(sslConfig(config))
                .maxConnections(32)
                .connectionTimeout(Duration.ofSeconds(5))
                .responseTimeout(responseTimeout)
                .build();
    }

    /**
     * The TLS settings for the engine's transport. A unix socket never uses TLS, yet without an SSL
     * config docker-java's httpclient5 transport builds the JDK's default TLS context and reads the
     * system trust store at start (ApacheDockerHttpClientImpl falls back to
     * DefaultClientTlsStrategy.createSystemDefault()): about 140 classes and a second of the
     * agent's start on this machine. So a unix socket gets a context that no provider backs and that
     * nothing uses ({@link NoTlsContext}; even an uninitialised provider context loads ~200 classes).
     */
    static SSLConfig sslConfig(DockerClientConfig config) {
        if (config.getSSLConfig() != null || !"unix".equals(config.getDockerHost().getScheme())) {
            return config.getSSLConfig();
        }
        return NoTlsContext::new;
    }

    /** Whether the engine answers at all; used by checks before anything else is tried. */
    public String version() {
        return call("ask the engine its version", () -> client.versionCmd().exec().getVersion());
    }

    /** The newest API version the engine speaks ("1.41"), for the installer's preflight. */
    public String apiVersion() {
        return call("ask the engine its API version", () -> client.versionCmd().exec().getApiVersion());
    }

    /** How long a log stream may be silent before the engine's connection is dropped: a day (see {@link #logs}). */
    static final Duration STREAM_SILENCE = Duration.ofDays(1);

    /**
     * The container's output through docker-java's {@code logContainerCmd}. On a client of its own whose
     * response timeout is {@link #STREAM_SILENCE}: a follow of a quiet container hears nothing for long, and the
     * calls' 60 s would cut it. What bounds a follow is its caller, which asks the engine every second whether
     * the container is still the one followed ({@code mesh.plan.FollowEnd}) and closes the stream when not.
     */
    @Override
    public java.io.Closeable logs(String id, java.time.Instant since, Integer tail, boolean follow, LogSink sink) {
        var cmd = streams().logContainerCmd(id).withStdOut(true).withStdErr(true).withTimestamps(true)
                .withFollowStream(follow);
        if (since != null) {
            cmd = cmd.withSince((int) since.getEpochSecond());
        }
        if (tail != null) {
            cmd = cmd.withTail(tail);
        }
        ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            private final java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();

            @Override
            public void onNext(Frame frame) {
                try {
                    sink.frame(frame.getStreamType() == com.github.dockerjava.api.model.StreamType.STDERR,
                            new String(frame.getPayload(), java.nio.charset.StandardCharsets.UTF_8));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closeQuietly(this);
                }
            }

            @Override
            public void onError(Throwable failure) {
                if (over.compareAndSet(false, true)) {
                    sink.ended(failure);
                }
                super.onError(failure);
            }

            @Override
            public void onComplete() {
                if (over.compareAndSet(false, true)) {
                    sink.ended(null);
                }
                super.onComplete();
            }
        };
        try {
            cmd.exec(callback);
        } catch (RuntimeException e) {
            throw new EngineFailure("read the output of container " + id + ": " + e.getMessage(), e);
        }
        return callback;
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (java.io.IOException e) {
            // the stream is being dropped anyway
        }
    }

    private DockerClient streams() {
        DockerClient c = streamClient;
        if (c == null) {
            synchronized (this) {
                if (streamClient == null) {
                    streamClient = DockerClientImpl.getInstance(config, http(config, STREAM_SILENCE));
                }
                c = streamClient;
            }
        }
        return c;
    }

    @Override
    public List<ObservedContainer> list(String node) {
        return call("list containers", () -> client.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(Labels.NODE, node))
                .exec()).stream().map(DockerEngine::observed).toList();
    }

    private static ObservedContainer observed(Container c) {
        Map<String, String> labels = c.getLabels() == null ? Map.of() : c.getLabels();
        String name = c.getNames() == null || c.getNames().length == 0 ? c.getId() : c.getNames()[0].replaceFirst("^/", "");
        long generation;
        try {
            generation = Long.parseLong(labels.getOrDefault(Labels.GENERATION, "0"));
        } catch (NumberFormatException e) {
            generation = 0;
        }
        List<String> publishedOn = c.getPorts() == null ? List.of() : Arrays.stream(c.getPorts())
                .filter(p -> p.getPublicPort() != null)
                .map(p -> p.getIp() == null ? "" : p.getIp())
                .distinct().toList();
        Map<Integer, Integer> hostPorts = new java.util.HashMap<>();
        if (c.getPorts() != null) {
            Arrays.stream(c.getPorts()).filter(p -> p.getPublicPort() != null && p.getPrivatePort() != null)
                    .forEach(p -> hostPorts.put(p.getPrivatePort(), p.getPublicPort()));
        }
        return new ObservedContainer(c.getId(), name, labels.get(Labels.MODULE), labels.get(Labels.DIGEST),
                labels.get(Labels.SPEC), generation, runningState(c.getState()), publishedOn, false, hostPorts);
    }

    /**
     * Whether a listed container counts as running for the plan: "restarting" does too, since the engine's
     * restart policy is at it (starting it again from the agent would only race the engine); how often it
     * restarted is what {@link #vitals} tells, and a crash loop is judged from that.
     */
    private static boolean runningState(String state) {
        return "running".equals(state) || "restarting".equals(state);
    }

    @Override
    public boolean ensureNetwork(String network, Map<String, String> labels, mesh.model.Cidr subnet) {
        return call("ensure network " + network + (subnet == null ? "" : " on " + subnet), () -> {
            if (named(network) != null) {
                return false;
            }
            writes.incrementAndGet();
            var create = client.createNetworkCmd().withName(network).withDriver("bridge").withLabels(labels)
                    .withCheckDuplicate(true);
            if (subnet != null) {
                create.withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config()
                        .withSubnet(subnet.toString()).withGateway(subnet.addressAt(1))));
            }
            create.exec();
            return true;
        });
    }

    /**
     * The network whose name is exactly {@code network}, or null. The engine looks a network term up by name, then
     * by id, then by id prefix: a module network named {@code db} that does not exist is answered with any network
     * whose id starts with {@code db} ({@code bridge} on some engines), so the answer's name is checked.
     */
    private Network named(String network) {
        try {
            Network found = client.inspectNetworkCmd().withNetworkId(network).exec();
            return network.equals(found.getName()) ? found : null;
        } catch (NotFoundException missing) {
            return null;
        }
    }

    @Override
    public Map<String, List<mesh.model.Cidr>> networkSubnets() {
        return call("list networks", () -> {
            Map<String, List<mesh.model.Cidr>> found = new java.util.TreeMap<>();
            for (Network n : client.listNetworksCmd().exec()) {
                List<mesh.model.Cidr> subnets = new java.util.ArrayList<>();
                if (n.getIpam() != null && n.getIpam().getConfig() != null) {
                    for (Network.Ipam.Config c : n.getIpam().getConfig()) {
                        ipv4(c.getSubnet()).ifPresent(subnets::add);
                    }
                }
                found.put(n.getName(), List.copyOf(subnets));
            }
            return found;
        });
    }

    /** An engine's subnet text as a network; an IPv6 or unreadable one is not in the IPv4 range's way. */
    private static java.util.Optional<mesh.model.Cidr> ipv4(String subnet) {
        if (subnet == null || subnet.contains(":")) {
            return java.util.Optional.empty();
        }
        try {
            int slash = subnet.indexOf('/');
            int prefix = Integer.parseInt(subnet.substring(slash + 1).strip());
            return java.util.Optional.of(mesh.model.Cidr.enclosing(mesh.model.Cidr.address(subnet.substring(0, slash)), prefix));
        } catch (RuntimeException unreadable) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public Map<String, String> networks(String node) {
        return call("list networks", () -> {
            Map<String, String> found = new java.util.TreeMap<>();
            client.listNetworksCmd().withFilter("label", List.of(Labels.NODE + "=" + node)).exec().forEach(n -> {
                Map<String, String> labels = n.getLabels() == null ? Map.of() : n.getLabels();
                if (node.equals(labels.get(Labels.NODE))) {
                    found.put(n.getName(), labels.getOrDefault(Labels.MODULE, ""));
                }
            });
            return found;
        });
    }

    @Override
    public void removeNetwork(String network) {
        run("remove network " + network, () -> {
            Network found = named(network);
            if (found == null) {
                return;   // already gone: removal is idempotent (and a network whose id the name prefixes is not it)
            }
            writes.incrementAndGet();
            try {
                client.removeNetworkCmd(found.getId()).exec();
            } catch (NotFoundException gone) {
                // gone meanwhile
            }
        });
    }

    @Override
    public boolean ensureVolume(String volume, Map<String, String> labels) {
        return call("ensure volume " + volume, () -> {
            try {
                client.inspectVolumeCmd(volume).exec();
                return false;
            } catch (NotFoundException missing) {
                writes.incrementAndGet();
                client.createVolumeCmd().withName(volume).withLabels(labels).exec();
                return true;
            }
        });
    }

    /** The volumes labelled with the node: what {@code mesh uninstall} keeps, or deletes with --delete-data. */
    public List<String> volumes(String node) {
        return call("list volumes", () -> {
            var answer = client.listVolumesCmd().withFilter("label", List.of(mesh.model.Labels.NODE + "=" + node)).exec();
            return answer.getVolumes() == null ? List.<String>of()
                    : answer.getVolumes().stream().map(v -> v.getName()).sorted().toList();
        });
    }

    /** Deletes a volume: only {@code mesh uninstall --delete-data} and a take's rollback or forget-old do, never an apply (docs/design.md, invariant 8). */
    @Override
    public void removeVolume(String volume) {
        run("remove volume " + volume, () -> {
            writes.incrementAndGet();
            client.removeVolumeCmd(volume).exec();
        });
    }

    @Override
    public java.util.Optional<VolumeInfo> inspectVolume(String volume) {
        return call("inspect volume " + volume, () -> {
            try {
                var v = client.inspectVolumeCmd(volume).exec();
                return java.util.Optional.of(new VolumeInfo(v.getName(), v.getMountpoint(),
                        v.getLabels() == null ? Map.of() : Map.copyOf(v.getLabels())));
            } catch (NotFoundException missing) {
                return java.util.Optional.<VolumeInfo>empty();
            }
        });
    }

    @Override
    public void createVolume(String volume, Map<String, String> labels) {
        run("create volume " + volume, () -> {
            writes.incrementAndGet();
            client.createVolumeCmd().withName(volume).withLabels(labels).exec();
        });
    }

    @Override
    public String dataRoot() {
        return call("read the engine's data root", () -> client.infoCmd().exec().getDockerRootDir());
    }

    @Override
    public String create(ContainerRequest request) {
        return call("create " + request.name(), () -> {
            writes.incrementAndGet();
            try {
                return createCommand(request).exec().getId();
            } catch (NotFoundException noImage) {
                pull(request.image());
                writes.incrementAndGet();
                return createCommand(request).exec().getId();
            }
        });
    }

    /** The create call for a request: every field of it, and nothing that is not in it. */
    private CreateContainerCmd createCommand(ContainerRequest r) {
        List<ExposedPort> exposed = r.ports().stream().map(ExposedPort::tcp).toList();
        List<PortBinding> bindings = exposed.stream()
                .map(p -> new PortBinding(r.publishAddress() == null ? Ports.Binding.bindPort(r.hostPort(p.getPort()))
                        : Ports.Binding.bindIpAndPort(r.publishAddress(), r.hostPort(p.getPort())), p))
                .toList();
        HostConfig host = HostConfig.newHostConfig()
                .withBinds(r.mounts().entrySet().stream()
                        .map(m -> new Bind(m.getKey(), new Volume(m.getValue()))).toList())
                .withPortBindings(bindings)
                .withExtraHosts(r.extraHosts().toArray(String[]::new))
                .withRestartPolicy(RestartPolicy.noRestart());   // the agent starts them, never the engine: NoEngineRestarts
        if (r.network() != null) {
            host.withNetworkMode(r.network());
        }
        CreateContainerCmd cmd = client.createContainerCmd(r.image())
                .withName(r.containerName())
                .withLabels(r.labels())
                .withEnv(r.envList())
                .withExposedPorts(exposed)
                .withStopTimeout(r.stopTimeoutSeconds())
                .withHostConfig(host);
        if (!r.args().isEmpty()) {
            cmd.withCmd(r.args());
        }
        if (r.network() != null) {
            cmd.withAliases(r.name());
        }
        return cmd;
    }

    /**
     * Sets the restart policy {@code no} on each of the node's containers that has another (made by an older build with
     * {@code unless-stopped}): an engine that starts again must start nothing of the mesh's by itself (docs/backup.md,
     * "A moved copy never starts again"). One inspect per container; an update only where the policy is not {@code no}.
     */
    @Override
    public List<String> stopEngineRestarts(String node) {
        return call("set restart policy no on the node's containers", () -> {
            List<String> changed = new java.util.ArrayList<>();
            for (Container c : client.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.NODE, node)).exec()) {
                RestartPolicy policy;
                try {
                    policy = client.inspectContainerCmd(c.getId()).exec().getHostConfig().getRestartPolicy();
                } catch (NotFoundException gone) {
                    continue;
                }
                if (policy == null || policy.getName() == null || policy.getName().isEmpty() || "no".equals(policy.getName())) {
                    continue;
                }
                writes.incrementAndGet();
                client.updateContainerCmd(c.getId()).withRestartPolicy(RestartPolicy.noRestart()).exec();
                changed.add(c.getNames() == null || c.getNames().length == 0 ? c.getId() : c.getNames()[0].replaceFirst("^/", ""));
            }
            return changed;
        });
    }

    @Override
    public boolean hasImage(String image) {
        return call("inspect image " + image, () -> {
            try {
                client.inspectImageCmd(image).exec();
                return true;
            } catch (NotFoundException absent) {
                return false;
            }
        });
    }

    @Override
    public void fetchImage(String image) {
        pull(image);
    }

    private void pull(String image) {
        writes.incrementAndGet();
        QuietPull pull = new QuietPull();
        try {
            boolean done = slowClient.pullImageCmd(image).exec(pull).awaitCompletion(PULL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!done) {
                throw new EngineFailure("pulling " + image + " took longer than " + PULL_TIMEOUT, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineFailure("interrupted while pulling " + image, e);
        } catch (RuntimeException e) {
            pull.failure = e.getMessage();
        }
        if (pull.failure != null) {
            throw new EngineFailure("image " + image + " is not on this engine and pulling it failed: "
                    + firstLine(pull.failure), null);
        }
    }

    /**
     * QuietPull follows a pull and keeps its failure, from the answer or from the stream's error items.
     * docker-java's own callbacks log every failure with its stack trace at ERROR before the caller
     * sees it (ResultCallbackTemplate.onError; docker-java/docker-java#1689), which put one stack trace
     * in the agent's log per pass; this one only keeps the message, and the agent says it once.
     */
    static final class QuietPull extends ResultCallback.Adapter<com.github.dockerjava.api.model.PullResponseItem> {
        volatile String failure;

        @Override
        public void onNext(com.github.dockerjava.api.model.PullResponseItem item) {
            if (item.getErrorDetail() != null || item.getError() != null) {
                failure = item.getErrorDetail() != null && item.getErrorDetail().getMessage() != null
                        ? item.getErrorDetail().getMessage() : item.getError();
            }
        }

        @Override
        public void onError(Throwable failed) {
            failure = failed.getMessage() == null ? "the engine gave no reason" : failed.getMessage();
            try {
                close();
            } catch (java.io.IOException e) {
                // the stream is going away anyway; the failure is kept
            }
        }
    }

    @Override
    public void start(String id, boolean publishes) {
        run("start " + id, () -> {
            writes.incrementAndGet();
            try {
                client.startContainerCmd(id).exec();
                if (publishes) {
                    NeighborFlush.forget(NeighborFlush.addresses(client.inspectContainerCmd(id).exec()));
                }
            } catch (NotModifiedException alreadyRunning) {
                // a start that finds it running has nothing to do
            }
        });
    }

    @Override
    public void stop(String id, Duration grace) {
        run("stop " + id, () -> {
            writes.incrementAndGet();
            try {
                var stop = slowClient.stopContainerCmd(id);
                if (grace != null) {
                    stop.withTimeout((int) grace.toSeconds());
                }
                stop.exec();
            } catch (NotModifiedException alreadyStopped) {
                // nothing to stop
            } catch (NotFoundException gone) {
                // removed behind our back: nothing to stop
            }
        });
    }

    @Override
    public void remove(String id) {
        run("remove " + id, () -> {
            writes.incrementAndGet();
            try {
                client.removeContainerCmd(id).withRemoveVolumes(false).withForce(false).exec();
            } catch (NotFoundException gone) {
                // already gone: removal is idempotent
            }
        });
    }

    @Override
    public void rename(String id, String name) {
        run("rename " + id + " to " + name, () -> {
            writes.incrementAndGet();
            client.renameContainerCmd(id).withName(name).exec();
        });
    }

    @Override
    public String address(String id, String network) {
        return call("inspect " + id, () -> {
            InspectContainerResponse inspect = client.inspectContainerCmd(id).exec();
            Map<String, ContainerNetwork> networks = inspect.getNetworkSettings().getNetworks();
            ContainerNetwork on = networks == null ? null
                    : networks.get(network == null ? "bridge" : network);
            return on == null || on.getIpAddress() == null || on.getIpAddress().isEmpty() ? null : on.getIpAddress();
        });
    }

    @Override
    public int exec(String id, List<String> command, Duration timeout) {
        return call("exec in " + id, () -> {
            String execId = client.execCreateCmd(id).withCmd(command.toArray(String[]::new))
                    .withAttachStdout(true).withAttachStderr(true).exec().getId();
            // closed however it ends: a command that outlasts its timeout keeps running in the container, but its
            // output stream no longer holds one of the client's connections (and a reader thread) until it ends
            ResultCallback.Adapter<Frame> output = client.execStartCmd(execId).exec(new ResultCallback.Adapter<>());
            try {
                if (!output.awaitCompletion(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    return -1;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            } finally {
                closeQuietly(output);
            }
            Long code = client.inspectExecCmd(execId).exec().getExitCodeLong();
            return code == null ? -1 : code.intValue();
        });
    }

    @Override
    public boolean running(String id) {
        return call("inspect " + id, () -> {
            try {
                return Boolean.TRUE.equals(client.inspectContainerCmd(id).exec().getState().getRunning());
            } catch (NotFoundException gone) {
                return false;
            }
        });
    }

    @Override
    public mesh.model.Vitals vitals(String id) {
        return call("inspect " + id, () -> {
            InspectContainerResponse inspect;
            try {
                inspect = client.inspectContainerCmd(id).exec();
            } catch (NotFoundException gone) {
                return null;
            }
            InspectContainerResponse.ContainerState state = inspect.getState();
            boolean running = Boolean.TRUE.equals(state.getRunning()) && !Boolean.TRUE.equals(state.getRestarting());
            Long exit = state.getExitCodeLong();
            boolean ended = state.getFinishedAt() != null && !state.getFinishedAt().startsWith("0001-");
            // The engine sets ExitCode back to 0 when it starts a container again, so while one runs its
            // ExitCode is not how it last ended: only a container that is not running says that.
            boolean saysExit = ended && exit != null
                    && (!Boolean.TRUE.equals(state.getRunning()) || Boolean.TRUE.equals(state.getRestarting()));
            return new mesh.model.Vitals(running, inspect.getRestartCount() == null ? 0 : inspect.getRestartCount(),
                    saysExit ? "exit code " + exit : null, instant(state.getStartedAt()), null);
        });
    }

    /** The engine's RFC 3339 time, or null for its "never" (year 1) or an unreadable one. */
    private static java.time.Instant instant(String text) {
        if (text == null || text.startsWith("0001-")) {
            return null;
        }
        try {
            return java.time.Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    @Override
    public long writes() {
        return writes.get();
    }

    @Override
    public void close() {
        try {
            client.close();
            slowClient.close();
            if (streamClient != null) {
                streamClient.close();
            }
        } catch (java.io.IOException e) {
            // closing a client that is going away anyway
        }
    }

    private <T> T call(String what, Supplier<T> body) {
        try {
            return body.get();
        } catch (EngineFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new EngineFailure(what + " on " + dockerHost + " failed: " + firstLine(e.getMessage()), e);
        }
    }

    private void run(String what, Runnable body) {
        call(what, () -> {
            body.run();
            return null;
        });
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        // docker-java puts the engine's JSON answer in the message: keep the engine's own words, whole
        // (they often quote a URL: "Get \"https://...\": dial tcp ...").
        int brace = message.indexOf('{');
        if (brace >= 0) {
            try {
                com.fasterxml.jackson.databind.JsonNode answer = ENGINE_JSON.readTree(message.substring(brace));
                if (answer != null && answer.hasNonNull("message")) {
                    return answer.get("message").asText().strip();
                }
            } catch (java.io.IOException | RuntimeException notJson) {
                // not the engine's JSON: the first line, below
            }
        }
        // a transport failure comes as "java.net.SocketException: No such file or directory": keep the words, not the type
        return message.lines().findFirst().orElse(message).strip()
                .replaceAll("^(?:(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): )+", "");
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper ENGINE_JSON = new com.fasterxml.jackson.databind.ObjectMapper();
}
