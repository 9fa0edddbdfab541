#!/usr/bin/env bash
# home.sh CACHE BOOT_JDK HERE: a GraalVM home in CACHE/graalvm-home: the boot JDK (hard links, so
# it costs no space), the JDK static libraries, the builder's jars and C libraries, and
# bin/native-image (the project's driver). The builder finds all of it from java.home.
set -euo pipefail
cache=$1 jdk=$2 here=$3
home=$cache/graalvm-home
rm -rf "$home.new"
cp -al "$jdk" "$home.new" 2>/dev/null || cp -a "$jdk" "$home.new"
mkdir -p "$home.new/lib/static/linux-amd64/glibc" "$home.new/lib/svm/clibraries/linux-amd64" \
         "$home.new/lib/svm/builder/lib" "$home.new/lib/svm/driver"
cp "$cache"/jdk-static/*.a "$home.new/lib/static/linux-amd64/glibc/"
cp -r "$cache/builder-jars" "$home.new/lib/svm/builder/jars"
cp "$cache"/clibs/*.a "$home.new/lib/svm/clibraries/linux-amd64/"
cp -r "$cache/clibs/include" "$home.new/lib/svm/clibraries/linux-amd64/include"
cp "$cache/clibs/libreporterchelper.so" "$home.new/lib/svm/builder/lib/"
cp "$cache"/driver/*.class "$home.new/lib/svm/driver/"
cp -r "$here/jdk26-compat" "$home.new/lib/svm/jdk26-compat"
"$here/builder-exports.sh" "$jdk" "$cache/builder-jars" > "$home.new/lib/svm/builder/exports"
install -m 755 "$here/native-image" "$home.new/bin/native-image"
rm -rf "$home" && mv "$home.new" "$home"
"$home/bin/native-image" --version
