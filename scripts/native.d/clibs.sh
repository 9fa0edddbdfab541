#!/usr/bin/env bash
# clibs.sh SRC OUT BOOT_JDK: the C libraries the image builder links into every image, and the
# one it loads itself, from the project's own C in SRC:
#   liblibchelper.a     CPU features, signals, locale, time zone and thread helpers
#   libjvm.a            the JVM_* functions the JDK's native libraries call
#   libsvm_container.a  cgroup limits
#   libreporterchelper.so  the builder's progress report (terminal width, peak RSS)
set -euo pipefail
src=$1 out=$2 jdk=$3
cflags=(-O2 -fPIC -Wall -Werror -I "$src/include" -I "$jdk/include" -I "$jdk/include/linux")
rm -rf "$out" && mkdir -p "$out/obj" "$out/include"
lib() {
  local name=$1; shift
  local objs=()
  for c in "$@"; do
    gcc "${cflags[@]}" -c "$src/$c.c" -o "$out/obj/$c.o"
    objs+=("$out/obj/$c.o")
  done
  ar rcs "$out/$name" "${objs[@]}"
}
lib liblibchelper.a cpu_features signals locale process_helpers attach varargs
lib libjvm.a jvm
lib libsvm_container.a container
gcc "${cflags[@]}" -shared "$src/reporterchelper.c" -o "$out/libreporterchelper.so"
cp "$src"/include/*.h "$out/include/"
rm -rf "$out/obj"
ls "$out"
