#!/usr/bin/env python3
"""The Python standard-library peer for quakebench's import figure.

    python_import.py SCHEMA.sql STORE.sqlite FEED.geojson

Loads the whole feed with `json` (as a straightforward importer does) and upserts every
feature with `sqlite3.executemany` into the same schema quaketui uses (SCHEMA.sql is copied
from a quaketui store), in one transaction. Prints the number of rows written.
"""
import json
import sqlite3
import sys
import unicodedata

EXTRA = str.maketrans({"ı": "i", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t",
                       "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th"})


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(EXTRA)


def region(place):
    last = place.split(",")[-1].strip()
    return last or "Unknown"


def rows(features):
    for f in features:
        p, (lon, lat, depth) = f["properties"], f["geometry"]["coordinates"][:3]
        place = p.get("place") or ""
        r = region(place)
        yield (f["id"], p.get("mag"), p.get("magType"), place, p["time"], p.get("updated") or p["time"],
               lat, lon, depth, r, fold(r), fold(place), p.get("status"), p.get("type"), p.get("tsunami"),
               p.get("felt"), p.get("alert"), p.get("sig"), p.get("net"), p.get("url"), p.get("title"))


def main():
    schema, store, feed = sys.argv[1:4]
    with open(feed, encoding="utf-8") as f:
        features = json.load(f)["features"]
    db = sqlite3.connect(store)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    with open(schema, encoding="utf-8") as f:
        db.executescript(f.read())
    with db:
        db.executemany("""
            INSERT INTO quake (code, magnitude, magType, place, time, updated, latitude, longitude, depth,
                               region, regionKey, placeKey, status, type, tsunami, felt, alert, sig, net, url, title)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(code) DO UPDATE SET magnitude = excluded.magnitude, place = excluded.place,
                time = excluded.time, updated = excluded.updated WHERE excluded.updated >= quake.updated
            """, rows(features))
    print(db.execute("SELECT count(*) FROM quake").fetchone()[0])


if __name__ == "__main__":
    main()
