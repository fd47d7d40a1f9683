# The Python standard-library peer for importing QuakeML: xml.etree.ElementTree.iterparse
# (streaming, each <event> cleared after use) into sqlite3 in one transaction, taking the
# preferred origin and magnitude as quaketui does. For BENCHMARKS.md's QuakeML row.
#
#   python3 python_quakeml_import.py EVENTS.xml STORE.sqlite
import sqlite3, sys
import xml.etree.ElementTree as ET

def local(tag):
    return tag.rsplit("}", 1)[-1]

def child(element, name):
    for c in element:
        if local(c.tag) == name:
            return c
    return None

def value(element, *path):
    for name in path:
        if element is None:
            return None
        element = child(element, name)
    return None if element is None else (element.text or "").strip()

db = sqlite3.connect(sys.argv[2])
db.execute("CREATE TABLE IF NOT EXISTS quake (code TEXT PRIMARY KEY, magnitude REAL, place TEXT, time TEXT, latitude REAL, longitude REAL, depth REAL)")
rows = 0
with db:
    parent = None
    for kind, element in ET.iterparse(sys.argv[1], events=("start", "end")):
        if kind == "start":
            if local(element.tag) == "eventParameters":
                parent = element  # cleared after each event, so finished events do not pile up
            continue
        if local(element.tag) != "event":
            continue
        preferred_origin, preferred_magnitude = value(element, "preferredOriginID"), value(element, "preferredMagnitudeID")
        origins = [c for c in element if local(c.tag) == "origin"]
        magnitudes = [c for c in element if local(c.tag) == "magnitude"]
        origin = next((o for o in origins if o.get("publicID") == preferred_origin), origins[0] if origins else None)
        magnitude = next((m for m in magnitudes if m.get("publicID") == preferred_magnitude), magnitudes[0] if magnitudes else None)
        if origin is not None:
            depth = value(origin, "depth", "value")
            db.execute("INSERT OR REPLACE INTO quake VALUES (?, ?, ?, ?, ?, ?, ?)", (
                element.get("publicID"), float(value(magnitude, "mag", "value") or "nan") if magnitude is not None else None,
                value(element, "description", "text"), value(origin, "time", "value"),
                float(value(origin, "latitude", "value")), float(value(origin, "longitude", "value")),
                float(depth) / 1000 if depth else None))
            rows += 1
        element.clear()
        if parent is not None:
            parent.clear()
print(rows)
