#!/usr/bin/env bash
# jdk-static-libs.sh CACHE BOOT_JDK: the JDK's static libraries (libjava.a, libnio.a, libnet.a, …),
# which no package ships, built from Debian's openjdk-26 source package with the boot JDK 25.
# The image links JDK 26's natives against JDK 25's classes; two natives differ between them and are
# made to match 25 here: fstatat0 (a patch) and the SdpSupport natives (sdp-support.c, our own).
# Leaves the archives in CACHE/jdk-static/.
set -euo pipefail
cache=$1 boot_jdk=$2
here=$(cd "$(dirname "$0")" && pwd)
version=26.0.2.1+1 debian_rev=1
pool=http://deb.debian.org/debian/pool/main/o/openjdk-26
orig=openjdk-26_${version}.orig.tar.xz
src=$cache/jdk-src/openjdk-26-${version}
modules=(java.base jdk.net java.management jdk.management java.prefs jdk.security.auth jdk.sctp
         jdk.attach java.security.jgss java.instrument jdk.crypto.cryptoki)

mkdir -p "$cache/jdk-src"
cd "$cache/jdk-src"
if [[ ! -f $orig.ok ]]; then
  curl -fsS --retry 3 --max-time 900 -o "openjdk-26_${version}-${debian_rev}.dsc" "$pool/openjdk-26_${version}-${debian_rev}.dsc"
  curl -fsS --retry 3 --max-time 1800 -o "$orig" "$pool/$orig"
  want=$(awk -v f="$orig" '/^Checksums-Sha256:/{s=1;next} /^[^ ]/{s=0} s && $3==f {print $1}' \
         "openjdk-26_${version}-${debian_rev}.dsc")
  echo "$want  $orig" | sha256sum -c --quiet
  touch "$orig.ok"
fi
if [[ ! -f $src/.patched ]]; then
  rm -rf "$src"
  tar --no-same-owner -xf "$orig"
  (cd "$src" && patch -p1 -s < "$here/jdk26-fstatat0-as-in-25.patch")
  touch "$src/.patched"
fi

cd "$src"
if [[ ! -f build/.configured ]]; then
  bash configure --with-boot-jdk="$boot_jdk" --enable-headless-only --with-debug-level=release \
      --with-native-debug-symbols=none --disable-warnings-as-errors --with-jvm-variants=server \
      --with-conf-name=static > "$cache/jdk-configure.log" 2>&1 \
    || { tail -30 "$cache/jdk-configure.log"; exit 1; }
  touch build/.configured
fi
targets=()
for m in "${modules[@]}"; do targets+=("$m-static-libs"); done
make CONF=static JOBS="${MESH_NATIVE_JOBS:-1}" "${targets[@]}" > "$cache/jdk-make.log" 2>&1 \
  || { tail -40 "$cache/jdk-make.log"; exit 1; }

out=$cache/jdk-static
rm -rf "$out" && mkdir -p "$out"
find build/static/support/native -path '*/static/*.a' -exec cp {} "$out/" \;
# SdpSupport's natives left JDK 26 (its classes still call them in 25): ours, into libnet.a.
gcc -O2 -fPIC -c "$here/c/sdp_support.c" -I "$boot_jdk/include" \
    -I "$boot_jdk/include/linux" -o "$out/sdp_support.o"
ar rcs "$out/libnet.a" "$out/sdp_support.o" && rm "$out/sdp_support.o"
ls "$out"
