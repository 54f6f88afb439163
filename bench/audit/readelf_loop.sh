#!/usr/bin/env bash
# The anchors' way of auditing an image, as a shell loop: readelf -h on every
# file (Buildroot's check-bin-arch), readelf -d -l on each ELF file for its
# NEEDED, RPATH/RUNPATH, TEXTREL, GNU_STACK and BIND_NOW (Yocto's insane.bbclass
# reads objdump -p the same way), and each NEEDED looked up with `test -e` in
# the directories an arm64 Debian loader searches. One line per finding:
#   KIND PATH DETAIL
# usage: readelf_loop.sh ROOT [MACHINE]   (MACHINE as readelf names it: AArch64)
set -u
root=${1:?usage: readelf_loop.sh ROOT [MACHINE]}
machine=${2:-AArch64}
dirs=(lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib)
find "$root" -type f -print0 | sort -z | while IFS= read -r -d '' file; do
  rel=${file#"$root"/}
  header=$(LC_ALL=C readelf -h "$file" 2>/dev/null) || continue
  case $rel in lib/firmware/*|usr/lib/firmware/*|lib/modules/*|usr/lib/modules/*|usr/share/*) continue ;; esac
  grep -q "Machine: *$machine" <<<"$header" || echo "arch $rel $(sed -n 's/^ *Machine: *//p' <<<"$header")"
  info=$(LC_ALL=C readelf -d -l -W "$file" 2>/dev/null)
  while read -r name; do
    found=0
    for dir in "${dirs[@]}"; do [ -e "$root/$dir/$name" ] && found=1 && break; done
    [ "$found" = 1 ] || echo "missing $rel $name"
  done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$info")
  sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/rpath '"${rel//\//\\/}"' \1 \2/p' <<<"$info"
  grep -q "TEXTREL" <<<"$info" && echo "textrel $rel"
  grep -q "GNU_STACK.*RWE" <<<"$info" && echo "execstack $rel"
  if grep -q "program interpreter" <<<"$info" && grep -q GNU_RELRO <<<"$info" \
     && ! grep -qE "BIND_NOW|Flags:.* NOW" <<<"$info"; then echo "lazy $rel"; fi
done
