#!/usr/bin/env bash
# builder-exports.sh JDK: the --add-exports the image builder's modules need from the JDK, one a
# line (a java @argfile). A GraalVM JDK exports its internals to the builder in its own module
# descriptors; a plain JDK 25 does not, so every package of every JDK module that the module keeps
# to itself (or to a few) is exported to the builder's modules here.
set -euo pipefail
to=org.graalvm.nativeimage.builder,org.graalvm.nativeimage.pointsto,org.graalvm.nativeimage.base
to=$to,org.graalvm.nativeimage.objectfile,org.graalvm.truffle.compiler,org.graalvm.nativeimage.libgraal
to=$to,org.graalvm.nativeimage.configure,jdk.graal.compiler
"$1/bin/java" --list-modules | sed 's/@.*//' | while read -r module; do
  "$1/bin/java" --describe-module "$module" \
    | awk -v m="$module" -v to="$to" '$1 == "contains" || $1 == "qualified" {
        p = ($1 == "contains") ? $2 : $3; print "--add-exports=" m "/" p "=" to }' | sort -u
done
