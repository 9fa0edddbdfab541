#!/usr/bin/env bash
# builder-exports.sh JDK JARS: the --add-exports the image builder's modules need from the JDK, one a
# line (a java @argfile). A GraalVM JDK exports its internals to the builder in its own module
# descriptors; a plain JDK 25 does not, so every package of every JDK module that the builder's
# JVM resolves (--add-modules ALL-DEFAULT) and that keeps it to itself (or to a few) is exported
# to the builder's modules here.
set -euo pipefail
jdk=$1 jars=$2
to=org.graalvm.nativeimage.builder,org.graalvm.nativeimage.pointsto,org.graalvm.nativeimage.base
to=$to,org.graalvm.nativeimage.objectfile,org.graalvm.truffle.compiler,org.graalvm.nativeimage.libgraal
to=$to,org.graalvm.nativeimage.configure,jdk.graal.compiler
all=$(mktemp)
trap 'rm -f "$all"' EXIT
"$jdk/bin/java" --list-modules | sed 's/@.*//' | while read -r module; do
  "$jdk/bin/java" --describe-module "$module" \
    | awk -v m="$module" -v to="$to" '$1 == "contains" || $1 == "qualified" {
        p = ($1 == "contains") ? $2 : $3; print "--add-exports=" m "/" p "=" to }' | sort -u
done > "$all"
# modules the builder's JVM does not resolve would only draw "Unknown module" warnings
modules=$(ls "$jars"/*.jar | grep -v /compiler- | paste -sd:)
unresolved=$("$jdk/bin/java" --upgrade-module-path "$(ls "$jars"/compiler-*.jar)" --module-path "$modules" \
    --add-modules ALL-DEFAULT,org.graalvm.nativeimage.builder "@$all" -version 2>&1 \
  | sed -n 's/^WARNING: Unknown module: \([^ ]*\) specified.*/\1/p' | sort -u) || unresolved=""
if [[ -n $unresolved ]]; then
  grep -v -E "^--add-exports=($(echo "$unresolved" | paste -sd'|' | sed 's/\./\\./g'))/" "$all"
else
  cat "$all"
fi
