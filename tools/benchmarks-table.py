#!/usr/bin/env python3
"""BENCHMARKS.md's current table from one whole quakebench run.

    tools/benchmarks-table.py LOG

LOG is the output of `quakebench --sizes 1000000,5000000 ...` (or a dated log that holds its
table). Prints the rows of BENCHMARKS.md's "Current figures" table, 1M and 5M side by side,
each cell gathered from the run's own rows the same way every time: a figure's median (worst),
a group of keys as the range of their medians (the worst of them), the peer measured in the
same run. Paste them under the table's header; the notes under it stay yours to write.
"""
import re
import sys

SIZES = ["1,000,000", "5,000,000"]


def read_rows(path):
    """{(figure, N): row}; an indented row's figure is its parent's, ' / ', its own."""
    rows, parent = {}, None
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| ") or line.startswith("| figure") or line.startswith("|---"):
            continue
        cells = [c for c in line.rstrip("\n").split("|")[1:-1]]
        if len(cells) < 9:
            continue
        raw = cells[0][1:]  # one space after the bar
        figure = raw.strip()
        if raw.startswith("  ") and parent:
            figure = parent + " / " + figure
        else:
            parent = figure
        ours, worst, runs, peer, ratio, target, met = (c.strip() for c in cells[2:9])
        rows[(figure, cells[1].strip())] = dict(ours=ours, worst=worst, runs=runs, peer=peer, ratio=ratio, met=met)
    return rows


UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(text):
    m = re.match(r"([\d.,]+)\s*(ns|µs|us|ms|s)\b", text)
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)] if m else None


def value(text):
    """The leading figure of a cell (`17.28 s (expert …)` → `17.28 s`)."""
    m = re.match(r"([\d.,]+\s*(?:ns|µs|us|ms|s|MB|B|×))", text)
    return m.group(1) if m else text


def span(values):
    """`1.7–2.2 ms` from cells in one unit, `198.0 ms – 4.13 s` across units."""
    values = sorted(values, key=seconds)
    low, high = values[0], values[-1]
    lu, hu = low.split()[-1], high.split()[-1]
    if low == high:
        return low
    return f"{low.split()[0]}–{high}" if lu == hu else f"{low} – {high}"


def pair(a, b):
    """`9.8 / 8.3 ms` for two figures in one unit."""
    return f"{a.split()[0]} / {b}" if a.split()[-1] == b.split()[-1] else f"{a} / {b}"


def worst(cells):
    return max(cells, key=seconds)


class Run:
    def __init__(self, rows, n):
        self.rows, self.n = rows, n

    def row(self, figure):
        key = (figure, self.n)
        if key not in self.rows:
            raise KeyError(f"no row {figure!r} at N={self.n}")
        return self.rows[key]

    def find(self, predicate):
        return [(f, r) for (f, n), r in self.rows.items() if n == self.n and predicate(f)]

    def one(self, figure):
        r = self.row(figure)
        return f"{r['ours']} ({r['worst']})" if r["worst"] else r["ours"]

    def peer(self, figure):
        return value(self.row(figure)["peer"])

    def met(self, *figures):
        verdicts = [self.row(f)["met"] for f in figures]
        return "no" if any(v.lower() == "no" for v in verdicts) else "yes"

    def group(self, figures):
        rows = [self.row(f) for f in figures]
        return f"{span([r['ours'] for r in rows])} ({worst([r['worst'] or r['ours'] for r in rows])})"


def cells(run, first_run):
    """Each table row's (ours, peer, met) at one size."""
    out = []
    add = lambda ours, peer, met: out.append((ours, peer, met))

    r = run.row("import GeoJSON (time)")
    add(run.one("import GeoJSON (time)"), f"{value(r['peer'])}, expert `sqlite3` load ({r['ratio']})", r["met"])
    month = "import a month (12,569 new) into N"
    r = run.row(month)
    add(run.one(month), f"{value(r['peer'])}, the same file into an empty store ({r['ratio']})", r["met"])
    agency = "import another agency's month into N (association)"
    r = run.row(agency)
    m = re.search(r"the USGS month just before, into the same store: ([\d.]+) s \(([\d.]+×)\)", r["peer"])
    before = f"{float(m.group(1)) * 1000:.0f} ms ({m.group(2)})" if m else "—"
    add(run.one(agency), f"the USGS month imported just before into the same store: {before}; the month row: "
        f"{run.row(month)['ours']}", r["met"])
    add(run.one("re-import the month unchanged"), "—", run.met("re-import the month unchanged"))
    rss = f"{run.row('import peak RSS')['ours']}; {run.row('import a month into N: peak RSS')['ours']}"
    if run is not first_run:
        growth = run.rows.get(("import peak RSS growth 1,000,000→5,000,000", run.n))
        if growth:
            rss += f" ({growth['ours']} the 1M import)"
    add(rss, "—", run.met("import peak RSS", "import a month into N: peak RSS"))

    pty = "pty: launch → first restored frame (real quaketui)"
    add(run.one(pty), f"{run.peer('first restored frame after launch')}, `sqlite3` process, same reads", run.met(pty))

    def keys(*names):
        figures = []
        for name in names:
            found = [f for f, _ in run.find(lambda f: f == "pty: key→frame: " + name or f.startswith("pty: key→frame: " + name + " ("))]
            if not found:
                raise KeyError(name)
            figures += sorted(found)
        return figures

    scroll = keys("j", "k", "↓", "↑", "PgDn", "PgUp", "ctrl-d", "ctrl-u")
    add(run.group(scroll), "—", run.met(*scroll))
    others = keys("G", "g", "space", "Enter (open the detail)", "Tab", "shift-Tab", "1 2 3", "?", "e", "H", "r", "ctrl-l")
    add(run.group(others), "—", run.met(*others))
    escs = keys("Esc")
    add(run.group(escs), "—", run.met(*escs))

    words = ["a", "al", "ala", "alas", "alask", "alaska"]
    searches = [f'key→frame: search "{w}"' for w in words]
    search_peers = span([run.peer(s) for s in searches])
    typed = keys("search keystroke")
    add(run.group(typed), search_peers, run.met(*typed))
    sorts = keys("s → magnitude", "s → region", "s → depth", "s → time", "S", "m")
    sort_peers = [run.peer(f"key→frame: sort → {o} (s)") for o in ["magnitude", "region", "depth", "time"]]
    sort_peers += [run.peer("key→frame: reverse the order (S)"), run.peer("key→frame: minimum magnitude (m, each preset)")]
    add(run.group(sorts), span(sort_peers), run.met(*sorts))
    for order in ["distance", "intensity"]:
        figure = keys("s → " + order)
        add(run.one(figure[0]), run.peer(f"key→frame: sort → {order} (s)"), run.met(*figure))
    on, off = keys("~ (near home on)")[0], keys("~ (near home off)")[0]
    o, f = run.row(on), run.row(off)
    add(f"{pair(o['ours'], f['ours'])} ({worst([o['worst'], f['worst']])})",
        f"{run.peer('key→frame: near home on (~, 300 km)')} / {run.peer('key→frame: near home off (~)')}", run.met(on, off))
    i, c = keys(":intensity 4+ Enter")[0], keys(":clear Enter")[0]
    a, b = run.row(i), run.row(c)
    add(f"{pair(a['ours'], b['ours'])} ({worst([a['worst'], b['worst']])})", "—", run.met(i, c))
    every = [f for f, _ in run.find(lambda f: f.startswith("key→frame:") and " / " not in f)]
    add(run.group(every), "—", run.met(*every))

    counted = [s + " / counts complete after it" for s in searches]
    add(run.group(counted), search_peers + ", `GROUP BY`", run.met(*counted))
    x, xq = 'key→frame: search "x"', 'key→frame: search "xq" (matches nothing)'
    cx, cxq = run.row(x + " / counts complete after it"), run.row(xq + " / counts complete after it")
    add(f"{pair(cx['ours'], cxq['ours'])} ({worst([cx['worst'], cxq['worst']])})", f"{run.peer(x)} / {run.peer(xq)}",
        run.met(x + " / counts complete after it", xq + " / counts complete after it"))
    d = "key→frame: sort → distance (s)"
    dc, do = run.row(d + " / counts complete after it"), run.row(d + " / order complete after it (g, G, jumps)")
    add(f"{dc['ours']} ({dc['worst']}: the first choice), its order {do['ours']} ({do['worst']}: the first choice)",
        run.peer(d), run.met(d + " / counts complete after it"))
    excluded = set(counted) | {x + " / counts complete after it", xq + " / counts complete after it",
                               d + " / counts complete after it", "key→frame: sort → intensity (s) / counts complete after it"}
    rest = sorted(f for f, _ in run.find(lambda f: f.endswith(" / counts complete after it") and f.startswith("key→frame:")))
    rest = [f for f in rest if f not in excluded]
    worst_row = max(rest, key=lambda f: seconds(run.row(f)["worst"]))
    add(f"{span([run.row(f)['ours'] for f in rest])} ({run.row(worst_row)['worst']}: "
        f"`{worst_row.removeprefix('key→frame: ').split(' / ')[0]}`)", "—", run.met(*rest))
    stats = sorted(f for f, _ in run.find(lambda f: f.endswith(" / statistics complete after it")))
    after_a = 'key→frame: search "a" with the statistics open / statistics complete after it'
    view = "statistics view: complete statistics of the list (=)"
    stats_peers = sorted({run.peer(f) for f in stats} | {run.peer(view)}, key=seconds)
    add(f"{run.group(stats)}; after a search for \"a\" with it open {run.one(after_a)}; the view alone {run.one(view)}",
        f"{span(stats_peers)}, four `GROUP BY`s", run.met(*stats, view))

    def simple(figure, peer_text=None, peer_suffix=""):
        p = run.row(figure)["peer"]
        peer = peer_text if peer_text is not None else (f"{value(p)}{peer_suffix}" if not p.startswith("—") and p else "not measured")
        add(run.one(figure), peer, run.met(figure))

    simple("map of the list: world density grid", peer_suffix=", `GROUP BY` cell")
    simple("stats: Mc, b, bootstrap of 200, b-positive", peer_suffix=", numpy")
    simple("the list declustered: the kept ids applied (count and sections)", peer_text="—")
    gk, kept = "stats --decluster gk (first computation)", "stats --decluster gk (kept: the view again, no commit since)"
    p = run.row(gk)["peer"]
    add(f"{run.one(gk)}; kept {run.one(kept)}", f"{value(p)}, numpy" if not p.startswith("—") and p else "not measured", "yes")
    simple("sequence view (A) after the largest quake", peer_suffix=", numpy + scipy")
    simple("quaketui status (process, one line)", peer_suffix=", `sqlite3` reading the same day")
    live = run.row("live change in another process → frame")
    add(f"{live['ours']} (p95 {run.row('live change → frame (p95)')['ours']})", "—",
        run.met("live change in another process → frame"))
    pty = "live change in another process → frame, real quaketui on a pty (marks read)"
    agree = re.search(r"(\d+ of \d+ frames[^)]*)", run.row(pty)["peer"])
    add(run.one(pty), agree.group(1) if agree else "—", run.met(pty))
    simple("month import in another process → frame", peer_text="—")
    for figure in ["auto-refresh, unchanged feed (304): key→frame while polling", "auto-refresh, changed feed: key→frame during the refresh"]:
        r = run.row(figure)
        over = re.search(r"(\d+) of (\d+) frames over 16 ms", r["peer"])
        add(f"{run.one(figure)}, {over.group(1)} of {over.group(2)} over 16 ms", f"{value(r['peer'])} without polling", r["met"])
    add(run.row("pty: idle browser CPU over 60 s (utime+stime)")["ours"], "—", run.met("pty: idle browser CPU over 60 s (utime+stime)"))
    add(f"{run.row('pty: browser peak RSS (real quaketui)')['ours']}; {run.row('browser peak RSS (restore + all keys above)')['ours']} in process",
        "—", run.met("pty: browser peak RSS (real quaketui)", "browser peak RSS (restore + all keys above)"))
    notes = "notes save (one durable commit, a browser's connection open)"
    add(run.one(notes), f"{run.peer(notes)}, the same `UPDATE` in the shell, not durable", "—")
    size = run.row("store size per quake")
    m = re.match(r"— \(([\d,]+) MB in all; (.*)\)$", size["peer"])
    parts = m.group(2).split(", ") if m else []
    add(f"{size['ours']} ({int(m.group(1)):,} MB)" if m else size["ours"], ", ".join(parts[:7]) + ", …", "—")
    scene = run.rows.get(("scene change → on disk", "0"))
    add("(not per size)" if run is first_run else f"{scene['ours']} ({scene['worst']})", "—", "—" if run is first_run else scene["met"])
    delete = [f for f, _ in run.find(lambda f: f.startswith("delete --before: the oldest half"))][0]
    r = run.row(delete)
    add(r["ours"], f"{value(r['peer'])}, the same `DELETE` in the `sqlite3` shell ({r['ratio']})", "—")
    wait = "a notes save every 0.2 s during that delete: longest wait"
    r = run.row(wait)
    saves = re.search(r"\((\d+) saves, median ([\d.]+ \w+), (none failed|\d+ failed)", r["peer"])
    add(f"{r['ours']} ({saves.group(1)} saves, median {saves.group(2)}, {saves.group(3)})",
        f"(the peer's one transaction keeps a writer out for all its {run.peer(delete)})", r["met"])
    return out


LABELS = [
    ("import into an empty store", "≤ 1.25× peer"),
    ("a month (12,569 new) into N", "≤ 1.0 s and ≤ 2× peer"),
    ("another agency's month into N (association, issue 53)", "≤ 2 s, and ≤ 1.25× the USGS month into N"),
    ("re-import the month unchanged", "≤ 0.25 s"),
    ("import peak RSS (empty store; a month into N)", "≤ 64 MB, flat"),
    ("launch → first restored frame, real `quaketui` on a pty", "≤ 50 ms, ≤ 100 ms worst"),
    ("key → frame on a pty: `j` `k` `↓` `↑` `PgDn` `PgUp` `ctrl-d` `ctrl-u`", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `G` `g` `space` `Enter` `Tab` `shift-Tab` `1 2 3` `?` `e` `H` `r` `ctrl-l`", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `Esc` (close the detail / clear the search / close help / cancel the notes)", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: each search keystroke (`/alaska`)", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `s` → magnitude, region, depth, time; `S`; `m`", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `s` → distance", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `s` → intensity (predicted at home)", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `~` near home on / off", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame on a pty: `:intensity 4+` Enter / `:clear` Enter", "≤ 16 ms, ≤ 33 ms worst"),
    ("key → frame (in process): every key of the bench, statistics view open or not", "≤ 16 ms, ≤ 33 ms worst"),
    ("complete section counts: search keystrokes `a` … `alaska`", "≤ 250 ms"),
    ("complete section counts: `x`, `xq` (one letter, then two that match nothing)", "≤ 250 ms"),
    ("complete section counts: a distance sort chosen again", "≤ 250 ms"),
    ("complete section counts: other keys (sorts, `~`, `m`, `space`, `S`, `G`, `g`, `Esc`, `=`, with the statistics view open or not)", "≤ 250 ms"),
    ("complete statistics of the list (`=`, and after a search, `Esc`, `m` with it open), as the browser computes it: counts first, then types, agencies, moments, b-positive", "≤ 250 ms"),
    ("map of the list: world density grid", "≤ 250 ms"),
    ("`stats`: Mc, b, a bootstrap of 200, b-positive (issue 54)", "≤ 250 ms"),
    ("the list declustered (`:decluster gk`): the kept ids applied", "≤ 250 ms"),
    ("Gardner–Knopoff's first computation (in the background, with progress; then kept)", "background, kept"),
    ("the sequence view (`A`) after the largest quake", "≤ 250 ms"),
    ("`quaketui status` (issue 55)", "≤ 50 ms"),
    ("live change in another process → frame", "≤ 50 ms"),
    ("live change in another process → frame, the real `quaketui` on a pty: the quake in the header's total and in its `N new`", "≤ 50 ms, the two agree"),
    ("a month imported in another process → frame", "≤ 250 ms, selection kept"),
    ("auto-refresh, unchanged feed (304): key → frame while polling", "≤ 16 ms, none delayed"),
    ("auto-refresh, changed feed: key → frame during the refresh (the list sorted by depth: its costliest merge)", "≤ 16 ms, none delayed"),
    ("idle browser over 60 s (CPU)", "≤ 0.1 s"),
    ("browser peak RSS (real `quaketui` on a pty; in process, every key of the bench with the statistics view as the browser computes it)", "≤ 64 MB"),
    ("notes save (one durable commit, a browser's connection open)", "reported"),
    ("store size per quake", "reported"),
    ("scene change → on disk", "≤ 250 ms"),
    ("`delete --before` the oldest half (issue 57)", "reported"),
    ("a notes save every 0.2 s during that delete: its longest wait", "≤ 1 s"),
]


def main():
    rows = read_rows(sys.argv[1])
    one = Run(rows, SIZES[0])
    five = Run(rows, SIZES[1])
    small, large = cells(one, one), cells(five, one)
    assert len(small) == len(LABELS) == len(large), (len(small), len(LABELS), len(large))
    print("| SPEC §9 figure | target | 1M: ours (worst) | 1M: peer | met | 5M: ours (worst) | 5M: peer | met |")
    print("|---|---|---|---|---|---|---|---|")
    for (label, target), (o1, p1, m1), (o5, p5, m5) in zip(LABELS, small, large):
        print(f"| {label} | {target} | {o1} | {p1} | {m1} | {o5} | {p5} | {m5} |")


if __name__ == "__main__":
    main()
