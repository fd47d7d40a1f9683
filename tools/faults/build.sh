#!/bin/sh
# Builds tools/faults/faultshim.so (an LD_PRELOAD fault injector, see faultshim.c) if it is older
# than its source. Prints the library's path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="${1:-$here/faultshim.so}"
if [ ! -f "$out" ] || [ "$here/faultshim.c" -nt "$out" ]; then
    cc -O2 -shared -fPIC -Wall -o "$out.tmp.$$" "$here/faultshim.c" -ldl -lpthread
    mv "$out.tmp.$$" "$out"
fi
echo "$out"
