#!/bin/sh
# Regenerates Sources/QuakeTUI/Views/Coastlines.swift from GSHHG crude-resolution shorelines.
# Needs GMT 6 and the GSHHG data (Debian: apt-get install -y gmt gmt-gshhg-low) and python3.
# Usage: tools/coastlines/generate.sh   (from the repository root or anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Sources/QuakeTUI/Views/Coastlines.swift"
# -Rd: the whole world, longitudes -180..180; -Dc: crude resolution; -W: shorelines;
# -M: multi-segment ASCII output; -A1000: drop features smaller than 1000 km^2.
cd "${TMPDIR:-/tmp}"  # gmt writes gmt.history into the working directory
gmt coast -Rd -Dc -W -M -A1000 | python3 "$here/encode.py" > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
