# shellcheck shell=bash
# scripts/bench/lib/installed.sh — sourced by the benches that measure servers: raises a mesh the way
# operators do, so what is timed is the program `mesh install` installs (its launcher, the serve flags
# of mesh/serve-flags.properties, HTTPS with the mesh CA) and not a `java -jar` of our own.
#
# install_mesh N          `mesh install` on test-bed node n1 (the seat) and `mesh node add` + the printed
#                         `mesh install --join` line on n2..nN, each node's folders under $WORK/nodeI;
#                         sets ADDR[i], SOCK[i] and NET[i] (its namespace) for i = 1..N; with
#                         BENCH_NODE_OFFSET=K the nodes are test-bed nodes n(1+K).. (their mesh names stay
#                         n1..nN), so a bench can run beside tests that use n1..; exports MESH_CONTROLLER, MESH_TOKEN and
#                         MESH_CA for the CLI (the config file install wrote), CTRL_CERT/CTRL_KEY (the
#                         controller's client certificate, for calls to the agents); the artifact store's
#                         image is BENCH_REGISTRY_IMAGE (default mesh-test/registry:2, the test bed's)
# mesh_cli ARGS...        the packaged CLI ($WORK/app) with that config; with BENCH_NATIVE set (the path
#                         of a native executable scripts/native built) that executable instead, for mesh_cli
#                         and for `mesh install` too, so the installed servers are native (install copies
#                         itself into each node's state folder as bin/mesh-native)
# agent_call I METHOD PATH [BODY]
#                         curl to node I's agent over HTTPS with the controller's certificate
# agent_pid I             the pid of node I's agent (its install recorded it)
# uninstall_mesh          ends every process started from $WORK and empties the nodes' engines
# Needs: REPO, WORK, JAVA_HOME, log/die from app.sh, and the app copied to $WORK/app (prepare_app).

# The serve verbs refuse plain HTTP unless told; an installed mesh is HTTPS only (app.sh's default off).
unset MESH_PLAIN_HTTP

declare -a ADDR SOCK NET
INSTALLED_NODES=0

mesh_in() {   # I ARGS...: the packaged mesh inside node I's namespace, HOME in its folder
  local i=$1
  shift
  local program
  mapfile -t program < <(mesh_program)
  HOME="$WORK/node$i/home" nsenter --net="/run/netns/${NET[i]}" env -u MESH_PLAIN_HTTP "${program[@]}" "$@"
}

mesh_program() {   # the command every verb runs, one word a line: the packaged jar, or the native executable (BENCH_NATIVE)
  if [[ -n ${BENCH_NATIVE:-} ]]; then
    printf '%s\n' "$BENCH_NATIVE"
  else
    printf '%s\n' "$JAVA_HOME/bin/java" -XX:TieredStopAtLevel=1 -jar "$WORK/app/quarkus-run.jar"
  fi
}

install_mesh() {
  local n=$1 i nodes join offset=${BENCH_NODE_OFFSET:-0}
  nodes=$("$REPO/scripts/testbed" nodes up "$((n + offset))" "$((offset + 1))")
  for i in $(seq "$n"); do
    NET[i]=n$((i + offset))
    ADDR[i]=$(awk -v n="${NET[i]}" '$1 == n {print $2}' <<<"$nodes")
    SOCK[i]="unix:///run/mesh-${NET[i]}/docker.sock"
    mkdir -p "$WORK/node$i/home"
    empty_engine "$i"
  done
  INSTALLED_NODES=$n
  log "mesh install on n1 (${ADDR[1]})"
  # a second run resumes where the first stopped (install is idempotent): on a loaded machine a step can
  # outlast its deadline once
  for attempt in 1 2; do
    mesh_in 1 install --node n1 --address "${ADDR[1]}" --engine "${SOCK[1]}" --state-dir "$WORK/node1/state" \
      --config-dir "$WORK/node1/etc" --store-image mesh-test/postgres:15 --registry-image "${BENCH_REGISTRY_IMAGE:-mesh-test/registry:2}" \
      >>"$WORK/install-n1.log" 2>&1 && break
    [ "$attempt" = 2 ] && { tail -30 "$WORK/install-n1.log" >&2; die "mesh install on n1 failed twice"; }
    log "mesh install on n1 failed once (log: $WORK/install-n1.log); running it again, as an operator would"
  done
  # shellcheck disable=SC1090
  set -a; source "$WORK/node1/home/.config/mesh/config"; set +a
  export MESH_CONTROLLER MESH_TOKEN MESH_CA
  CTRL_CERT="$WORK/node1/state/tls/controller.crt"   # the seat's TLS folder (mesh.trust.TlsDir)
  CTRL_KEY="$WORK/node1/state/tls/controller.key"
  for i in $(seq 2 "$n"); do
    join=$(mesh_cli node add "n$i" --address "${ADDR[i]}" | sed -n 's/^ *mesh install --join /install --join /p')
    [ -n "$join" ] || die "mesh node add n$i printed no join line"
    log "mesh install --join on n$i (${ADDR[i]})"
    # shellcheck disable=SC2086
    mesh_in "$i" $join --engine "${SOCK[i]}" --state-dir "$WORK/node$i/state" --config-dir "$WORK/node$i/etc" \
      >"$WORK/install-n$i.log" 2>&1 || { tail -30 "$WORK/install-n$i.log" >&2; die "mesh install --join on n$i failed"; }
  done
}

mesh_cli() {
  local program
  mapfile -t program < <(mesh_program)
  "${program[@]}" "$@"
}

agent_call() {   # I METHOD PATH [BODY]
  curl -fsS --cacert "$MESH_CA" --cert "$CTRL_CERT" --key "$CTRL_KEY" -X "$2" -H 'Content-Type: application/json' \
    ${4:+--data "$4"} "https://${ADDR[$1]}:7701$3"
}

agent_pid() { cat "$WORK/node$1/state/agent.pid"; }

empty_engine() {   # I: every container and volume of node I's engine, and the mesh's networks (a test-bed node is ours)
  local s=${SOCK[$1]}
  [ -n "$s" ] || die "no engine for node $1"   # never the root engine by default
  # best effort, each line on its own: Docker 20.10 can keep a stale endpoint count on an emptied network,
  # which then refuses its removal; that must not end a bench (set -e) before it started
  docker -H "$s" ps -aq | xargs -r docker -H "$s" rm -f >/dev/null 2>&1 || true
  docker -H "$s" volume ls -q | xargs -r docker -H "$s" volume rm >/dev/null 2>&1 || true
  docker -H "$s" network ls -q --filter label=mesh.node | xargs -r docker -H "$s" network rm >/dev/null 2>&1 || true
  return 0
}

uninstall_mesh() {
  local p i
  for p in /proc/[0-9]*; do
    grep -qs "$WORK/node" "$p/cmdline" && kill -9 "${p#/proc/}" 2>/dev/null
  done
  for i in $(seq "$INSTALLED_NODES"); do empty_engine "$i"; done
  return 0
}
