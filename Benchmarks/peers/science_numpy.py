#!/usr/bin/env python3
"""The numpy peer for quakebench's science rows (issue 54, point 7).

    science_numpy.py STORE.sqlite RUNS MAINSHOCK_CODE

What a seismologist would script beside quaketui, on the same store: read the columns with the
standard `sqlite3` module into numpy arrays, then

- stats: the 0.1 magnitude bins, Mc by maximum curvature + 0.2, b by Aki–Utsu with Shi–Bolt's
  error, a bootstrap of 200 seeded resamples (Mc and b again on each), and b-positive (van der
  Elst 2021) on the time-ordered differences ≥ 0.2;
- gk: Gardner–Knopoff (1974) windows with van Stiphout et al.'s (2012) fit, largest first, each
  window a time slice found by `searchsorted` and a vectorised haversine over it;
- sequence: the quakes after the mainshock within the Wells & Coppersmith (1994) radius
  (≥ 10 km), and the modified Omori law fitted by maximum likelihood (Ogata 1983) with
  `scipy.optimize.minimize` when 50 or more lie above Mc.

Each stage is timed RUNS times from the read of the store to its result (Python's start and
numpy's import are not counted: a notebook has paid them already). Prints one JSON object:
{"stats": [seconds…], "gk": [seconds…], "sequence": [seconds…]}.
"""
import json
import math
import sqlite3
import sys
import time

import numpy as np

R_EARTH = 6371.0088
DAY_MS = 86_400_000.0


def columns(store, sql):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = db.execute(sql).fetchall()
    finally:
        db.close()
    return rows


def haversine(lat0, lon0, lat, lon):
    p0, p = np.radians(lat0), np.radians(lat)
    dp, dl = p - p0, np.radians(lon - lon0)
    a = np.sin(dp / 2) ** 2 + np.cos(p0) * np.cos(p) * np.sin(dl / 2) ** 2
    return 2 * R_EARTH * np.arcsin(np.sqrt(np.minimum(a, 1.0)))


def fit(m):
    tenths = np.round(m * 10).astype(np.int64)
    values, counts = np.unique(tenths, return_counts=True)
    mc = (values[np.argmax(counts)] + 2) / 10
    above = m[m >= mc - 0.05 - 1e-9]
    if above.size < 50 or above.mean() <= mc - 0.05:
        return mc, math.nan, math.nan
    b = math.log10(math.e) / (above.mean() - (mc - 0.05))
    error = 2.3 * b * b * math.sqrt(((above - above.mean()) ** 2).sum() / (above.size * (above.size - 1)))
    return mc, b, error


def stats(store):
    rows = columns(store, "SELECT magnitude FROM quake WHERE magnitude BETWEEN -5 AND 10 ORDER BY time")
    m = np.fromiter((r[0] for r in rows), dtype=np.float64, count=len(rows))
    mc, b, error = fit(m)
    rng = np.random.default_rng(54)
    boot = np.array([fit(rng.choice(m, size=m.size, replace=True))[:2] for _ in range(200)])
    differences = np.diff(np.round(m * 10)) / 10
    positive = differences[differences >= 0.2 - 1e-9]
    b_positive = math.log10(math.e) / (positive.mean() - 0.15) if positive.size >= 50 else math.nan
    return mc, b, error, boot.std(axis=0), b_positive


def gardner_knopoff(store):
    rows = columns(store, "SELECT time, latitude, longitude, magnitude FROM quake WHERE magnitude BETWEEN -5 AND 10 ORDER BY time")
    data = np.array(rows, dtype=np.float64).reshape(-1, 4)
    t, lat, lon, m = data[:, 0], data[:, 1], data[:, 2], data[:, 3]
    km = 10 ** (0.1238 * m + 0.983)
    days = np.where(m >= 6.5, 10 ** (0.032 * m + 2.7389), 10 ** (0.5409 * m - 0.547))
    state = np.zeros(m.size, dtype=np.int8)  # 0 free, 1 mainshock, 2 removed
    for i in np.lexsort((np.arange(m.size), -m)):
        if state[i]:
            continue
        state[i] = 1
        lo = np.searchsorted(t, t[i] - days[i] * DAY_MS, side="left")
        hi = np.searchsorted(t, t[i] + days[i] * DAY_MS, side="right")
        window = np.arange(lo, hi)
        free = window[state[window] == 0]
        if free.size:
            near = haversine(lat[i], lon[i], lat[free], lon[free]) <= km[i]
            state[free[near]] = 2
    return int((state == 2).sum())


def omori_fit(days):
    from scipy.optimize import minimize

    end = days.max()

    def negative_log_likelihood(x):
        k, c, p = np.exp(x)
        if abs(p - 1) < 1e-9:
            integral = k * (math.log(end + c) - math.log(c))
        else:
            integral = k * ((end + c) ** (1 - p) - c ** (1 - p)) / (1 - p)
        return -(days.size * math.log(k) - p * np.log(days + c).sum() - integral)

    result = minimize(negative_log_likelihood, np.log([days.size / 10, 0.05, 1.1]), method="Nelder-Mead")
    return np.exp(result.x)


def sequence(store, code):
    main = columns(store, f"SELECT time, latitude, longitude, magnitude FROM quake WHERE code = '{code}'")[0]
    radius = max(10.0, 10 ** (-3.22 + 0.69 * main[3]))
    rows = columns(store, f"SELECT time, latitude, longitude, magnitude FROM quake WHERE time > {main[0]} ORDER BY time")
    data = np.array(rows, dtype=np.float64).reshape(-1, 4)
    near = haversine(main[1], main[2], data[:, 1], data[:, 2]) <= radius
    after = data[near]
    days = (after[:, 0] - main[0]) / DAY_MS
    counts = np.bincount(days.astype(np.int64)) if days.size else np.zeros(0)
    m = after[:, 3][~np.isnan(after[:, 3])]
    if m.size >= 50:
        mc, _, _ = fit(m)
        above = days[after[:, 3] >= mc - 0.05]
        if above.size >= 50:
            return counts, omori_fit(above[above > 0])
    return counts, None


def timed(runs, body):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return times


def main():
    store, runs, code = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    print(json.dumps({
        "stats": timed(runs, lambda: stats(store)),
        "gk": timed(max(1, min(runs, 3)), lambda: gardner_knopoff(store)),
        "sequence": timed(runs, lambda: sequence(store, code)),
    }))


if __name__ == "__main__":
    main()
