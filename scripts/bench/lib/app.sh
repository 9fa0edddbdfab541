# shellcheck shell=bash
# scripts/bench/lib/app.sh — sourced by the scripts in scripts/bench: what they share (messages,
# clocks, the build-mode arguments, waiting for a quiet machine, where results go) and which mesh
# build is measured.
#
# log TEXT / die TEXT     progress and fatal errors on stderr, prefixed with $BENCH_NAME (default bench)
# now / load1             the wall clock ($EPOCHREALTIME) / the 1-minute load average
# parse_build_mode SCRIPT ARGS...
#                         sets BUILD_MODE from --build / --head (default target); --help prints
#                         SCRIPT's header comment; anything else is an error
# wait_for_quiet SECONDS  waits up to SECONDS for the load average to fall below the core count
# bench_out_dir           prints where raw results go: target/bench, or /tmp/bench without target/
#
# prepare_app MODE DEST   copies a quarkus-app folder to DEST (a private folder: nobody else's build
#                         can change the jar during the run) and sets APP_ORIGIN, a one-line
#                         description of what was measured; it fails unless the copy answers
#                         --version. MODE:
#   target   $MESH_APP, or the repository's target/quarkus-app as it is now (the working tree's
#            last build, which may include uncommitted edits)
#   build    ./mvnw -B -q package -DskipTests in the repository first, then as target
#   head     the committed HEAD, exported with `git archive` into a folder under /tmp and built
#            there; the working tree and its target/ are not touched
#                         It also sets APP_VERSION, the first line the copy's --version printed.
# prepare_app needs: REPO, JAVA_HOME, WORK (a private temporary folder).
#
# serve_java VERB         the java command with the JVM flags mesh install's launcher gives `VERB serve`
#                         (host or controller: mesh/serve-flags.properties), so a bench that starts a
#                         server by hand times the program operators install, not a `java -jar` of its own

# The benches run the servers by hand without TLS files: plain HTTP, which the serve verbs refuse
# unless told (docs/trust.md); a bench that measures TLS gives the files (and so HTTPS) instead.
export MESH_PLAIN_HTTP=yes

readonly BUILD_LIMIT=900   # seconds a build may take

serve_java() {
  local flags=$REPO/src/main/resources/mesh/serve-flags.properties serve verb
  serve=$(sed -n 's/^serve=//p' "$flags")
  verb=$(sed -n "s/^$1=//p" "$flags")
  [ -n "$serve" ] && [ -n "$verb" ] || die "cannot read the serve flags of '$1' in $flags"
  echo "$JAVA_HOME/bin/java -XX:+IgnoreUnrecognizedVMOptions $serve $verb"
}

log() { printf '%s: %s\n' "${BENCH_NAME:-bench}" "$*" >&2; }
die() { log "error: $*"; exit 1; }
now() { echo "$EPOCHREALTIME"; }
load1() { cut -d' ' -f1 /proc/loadavg; }

parse_build_mode() {
  local script=$1 arg
  shift
  BUILD_MODE=target
  for arg in "$@"; do
    case $arg in
      --build) BUILD_MODE=build ;;
      --head) BUILD_MODE=head ;;
      -h|--help) sed -n '2,/^set -euo/p' "$script" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg (try --help)" ;;
    esac
  done
}

wait_for_quiet() {
  local wait=$1 deadline
  ((wait > 0)) || return 0
  deadline=$((SECONDS + wait))
  while awk -v l="$(load1)" -v n="$(nproc)" 'BEGIN { exit !(l >= n) }' && ((SECONDS < deadline)); do
    log "load average $(load1) on $(nproc) cores; waiting up to ${wait}s for it to fall"
    sleep 10
  done
}

bench_out_dir() {
  if [[ -d $REPO/target ]]; then echo "$REPO/target/bench"; else echo /tmp/bench; fi
}

prepare_app() {
  local mode=$1 dest=$2 src rev dirty=
  rev=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
  [[ -n $(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null) ]] && dirty=", with uncommitted edits"
  case $mode in
    target|build)
      if [[ $mode == build ]]; then
        log "building the working tree (./mvnw -B -q package -DskipTests)"
        (cd "$REPO" && JAVA_HOME=$JAVA_HOME timeout "$BUILD_LIMIT" ./mvnw -B -q package -DskipTests >&2) \
          || die "the build failed (someone may be mid-edit: retry in a minute, or use --head)"
      fi
      src=${MESH_APP:-$REPO/target/quarkus-app}
      if [[ -n ${MESH_APP:-} ]]; then
        APP_ORIGIN="$src (MESH_APP)"
      else
        APP_ORIGIN="target/quarkus-app of the working tree at $rev$dirty, built $(date -u -r "$src/quarkus-run.jar" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo '?')"
      fi
      ;;
    head)
      log "building the committed HEAD ($rev) in a private folder (git archive + ./mvnw package)"
      mkdir -p "$WORK/src"
      git -C "$REPO" archive HEAD | tar -x -C "$WORK/src"
      (cd "$WORK/src" && JAVA_HOME=$JAVA_HOME timeout "$BUILD_LIMIT" ./mvnw -B -q package -DskipTests >"$WORK/build.log" 2>&1) \
        || { tail -30 "$WORK/build.log" >&2; die "the build of HEAD failed"; }
      src=$WORK/src/target/quarkus-app
      APP_ORIGIN="commit $rev ($(git -C "$REPO" log -1 --format=%s HEAD | cut -c1-70)), exported with git archive and built privately"
      ;;
    *) die "unknown build mode: $mode" ;;
  esac
  [[ -f $src/quarkus-run.jar ]] || die "no $src/quarkus-run.jar: build first (--build, or --head for the committed HEAD)"
  cp -a "$src" "$dest"
  APP_VERSION=$("$JAVA_HOME/bin/java" -jar "$dest/quarkus-run.jar" --version 2>"$WORK/version.err" | head -1) || true
  [[ $APP_VERSION == mesh* ]] || { tail -20 "$WORK/version.err" >&2; die "this build does not even answer --version (got '$APP_VERSION'): $APP_ORIGIN"; }
}
