#!/usr/bin/env bash
# Builds the libFuzzer targets into .build/fuzz/ (or $FUZZ_OUT):
#
#   fuzz-feed-json   FeedReader on GeoJSON (the input follows a `{`)
#   fuzz-feed-csv    FeedReader on USGS CSV (the input follows `time,`)
#   fuzz-feed-fdsn-text  FeedReader on FDSN text (the input follows the 13-column header line)
#   fuzz-feed-quakeml    FeedReader on QuakeML 1.2 (the input follows the root and eventParameters tags)
#   fuzz-plist       the state-file reader (PropertyListItem.rootDictionary + the key checks)
#   fuzz-key         the terminal key decoder (Key.decode / decodeEscapeSequence / decodeSGRMouse, InputDecoder splits)
#
# Each module is compiled once with `swiftc -sanitize=fuzzer,address` (coverage + AddressSanitizer),
# then each target is its entry file in tools/fuzz/targets/ linked against the modules.
# Usage: tools/fuzz/build.sh [TARGET...]   (default: all). Run: tools/fuzz/run.sh (see README).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${FUZZ_OUT:-$root/.build/fuzz}
mkdir -p "$out/modules"

# The feed formats, one line each: NAME:PREFIX. The prefix is what the reader's sniffing needs to
# choose the format, so every input exercises that format's parser. A new reader (FDSN text,
# QuakeML, EMSC…) is one more line here, e.g. "fdsn-text:#EventID|" — and, optionally, seed
# files in tools/fuzz/corpus/feed-NAME/.
FEED_FORMATS=(
    'json:{'
    'csv:time,'
    'fdsn-text:#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\#n'
    'quakeml:<?xml version="1.0"?><q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2"><eventParameters publicID="x">'
)

# FUZZ_OPT=-Onone compiles faster (CI's short runs); long runs want the default -O.
flags=(-sanitize=fuzzer,address -parse-as-library "${FUZZ_OPT:--O}" -gline-tables-only -swift-version 6 -package-name quaketui
       -I "$root/Sources/CSQLite" -I "$root/Sources/CQuakeSQL/include" -I "$root/Sources/CZlib" -I "$root/Sources/CNcursesw"
       -I "$out/modules")

rebuilt=0 done_modules=""
module() { # NAME — compiles Sources/NAME into $out/modules/NAME.{o,swiftmodule}, if changed
    local name=$1 stamp="$out/modules/$1${FUZZ_OPT:--O}.stamp"
    case " $done_modules " in *" $name "*) return ;; esac
    done_modules+=" $name"
    local sources
    mapfile -t sources < <(find "$root/Sources/$name" -name '*.swift' | sort)
    # Modules are compiled in dependency order: once one is rebuilt, every later one is too.
    if [ "$rebuilt" = 0 ] && [ -f "$stamp" ] && [ -z "$(find "$root/Sources/$name" -name '*.swift' -newer "$stamp")" ]; then return; fi
    rebuilt=1
    echo "fuzz: compiling $name (${#sources[@]} files)"
    swiftc "${flags[@]}" -module-name "$name" -wmo -enable-testing -c "${sources[@]}" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" -o "$out/modules/$name.o" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }
    rm -f "$out/modules/$name"-*.stamp
    touch "$stamp"
}

c_module() { # NAME — compiles Sources/NAME/*.c (a C target: QuakeStore's CQuakeSQL) into $out/modules/NAME.o
    local name=$1 stamp="$out/modules/$1${FUZZ_OPT:--O}.stamp"
    case " $done_modules " in *" $name "*) return ;; esac
    done_modules+=" $name"
    if [ "$rebuilt" = 0 ] && [ -f "$stamp" ] && [ -z "$(find "$root/Sources/$name" -newer "$stamp")" ]; then return; fi
    rebuilt=1
    echo "fuzz: compiling $name (C)"
    local file objects=() optimize=-O2
    [ "${FUZZ_OPT:--O}" = -Onone ] && optimize=-O0
    for file in "$root/Sources/$name"/*.c; do
        objects+=("$out/modules/$name-$(basename "$file" .c).o")
        clang -fsanitize=fuzzer-no-link,address "$optimize" -gline-tables-only -I "$root/Sources/$name/include" \
            -c "$file" -o "${objects[-1]}"
    done
    ld -r -o "$out/modules/$name.o" "${objects[@]}"
    rm -f "$out/modules/$name"-*.stamp
    touch "$stamp"
}

link() { # TARGET ENTRY MODULES... -- extra sources
    local target=$1 entry=$2; shift 2
    local objects=() extra=()
    while (($#)); do
        if [ "$1" = -- ]; then shift; extra=("$@"); break; fi
        objects+=("$out/modules/$1.o"); shift
    done
    echo "fuzz: linking $target"
    swiftc "${flags[@]}" -module-name "FuzzTarget" "$root/tools/fuzz/targets/$entry" "${extra[@]}" \
        "${objects[@]}" -lsqlite3 -lz -lncursesw -o "$out/$target" 2>&1 | { grep -v "Cannot export local symbol" || true; }
}

wanted=("$@")
want() { ((${#wanted[@]} == 0)) && return 0; local w; for w in "${wanted[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }

module QuakeTime
module QuakeModel
c_module CQuakeSQL
module QuakeStore
module QuakeFeed
for line in "${FEED_FORMATS[@]}"; do
    name=${line%%:*} prefix=${line#*:}
    want "fuzz-feed-$name" || continue
    # The one generated line: this target's format prefix.
    format_file="$out/feed-$name-format.swift"
    printf 'let feedPrefix: [UInt8] = Array(#"%s"#.utf8)\n' "$prefix" > "$format_file"
    link "fuzz-feed-$name" feed.swift QuakeTime QuakeModel CQuakeSQL QuakeStore QuakeFeed -- "$format_file"
done
if want fuzz-plist; then
    module QuakeScenes
    link fuzz-plist plist.swift QuakeTime QuakeScenes
fi
if want fuzz-key; then
    module QuakeScenes
    module QuakeTUI
    link fuzz-key key.swift QuakeTime QuakeModel QuakeScenes QuakeTUI
fi
echo "fuzz: built into $out"
