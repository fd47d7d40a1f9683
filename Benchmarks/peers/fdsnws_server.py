# A local FDSN event service (/fdsnws/event/1/query, format=text) over a catalogue file,
# for quaketui's fetch tests and quakebench's fetch row. Loopback only.
#
#   python3 fdsnws_server.py CATALOGUE PORT LIMIT FAULTS.json REQUESTS.jsonl
#
# CATALOGUE is FDSN text with a header line. Implements starttime/endtime (both included),
# min/maxmagnitude, min/maxdepth, min/maxlatitude, min/maxlongitude, latitude/longitude/maxradius
# (degrees), limit and nodata=204. Without a limit parameter, more than LIMIT matches is 413;
# with one, the first `limit` events by time are sent. FAULTS maps a 1-based request number to
# {"status": N, "retry_after": S, "message": "..."} or {"truncate": true} (a body cut in half
# while Content-Length promises all of it). Each request is logged as one JSON line.
import bisect, calendar, json, math, socket, sys, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from urllib.parse import urlparse, parse_qs

catalogue, port, limit, faults_path, log_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]

def iso_ms(text):
    text = text.rstrip("Z")
    date, _, clock = text.partition("T")
    y, mo, d = (int(x) for x in date.split("-"))
    h, mi, s = (clock or "00:00:00").split(":")
    whole, _, frac = s.partition(".")
    ms = int((frac + "000")[:3])
    return calendar.timegm((y, mo, d, int(h), int(mi), int(whole))) * 1000 + ms

header, events = None, []
with open(catalogue) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("#"):
            header = line
            continue
        c = line.split("|")
        events.append((iso_ms(c[1]), float(c[2]), float(c[3]), float(c[4]) if c[4] else None,
                       float(c[10]) if c[10] else None, line))
events.sort(key=lambda e: e[0])
times = [e[0] for e in events]
faults = json.load(open(faults_path))
lock = threading.Lock()
counter = [0]

def distance_degrees(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    c = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log(self, n, q, status, count):
        entry = {"n": n, "start": q.get("starttime", ""), "end": q.get("endtime", ""), "status": status,
                 "count": count, "ua": self.headers.get("User-Agent", "")}
        with lock:
            with open(log_path, "a") as f:
                f.write(json.dumps(entry) + "\n")

    def send(self, status, body, extra=None):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with lock:
            counter[0] += 1
            n = counter[0]
        u = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(u.query).items()}
        fault = faults.get(str(n), {})
        if "status" in fault:
            status = fault["status"]
            body = "Error %d: %s\n\n%s\n\nUsage details are available from http://127.0.0.1/fdsnws/event/1/\n" % (
                status, self.responses.get(status, ("",))[0], fault.get("message", "Injected failure"))
            extra = {"Retry-After": str(fault["retry_after"])} if fault.get("retry_after") is not None else {}
            self.send(status, body, extra)
            self.log(n, q, status, 0)
            return
        if u.path != "/fdsnws/event/1/query":
            self.send(404, "Error 404: Not Found\n")
            self.log(n, q, 404, 0)
            return
        try:
            start, end = iso_ms(q["starttime"]), iso_ms(q["endtime"])
        except Exception as e:
            self.send(400, "Error 400: Bad Request\n\nBad starttime or endtime: %s\n" % e)
            self.log(n, q, 400, 0)
            return
        f = lambda name: float(q[name]) if name in q else None
        minmag, maxmag, mindep, maxdep = f("minmagnitude"), f("maxmagnitude"), f("mindepth"), f("maxdepth")
        minlat, maxlat, minlon, maxlon = f("minlatitude"), f("maxlatitude"), f("minlongitude"), f("maxlongitude")
        clat, clon, radius = f("latitude"), f("longitude"), f("maxradius")
        lo, hi = bisect.bisect_left(times, start), bisect.bisect_right(times, end)
        matches = []
        for t, lat, lon, depth, mag, line in events[lo:hi]:
            if minmag is not None and (mag is None or mag < minmag): continue
            if maxmag is not None and (mag is None or mag > maxmag): continue
            if mindep is not None and (depth is None or depth < mindep): continue
            if maxdep is not None and (depth is None or depth > maxdep): continue
            if minlat is not None and lat < minlat: continue
            if maxlat is not None and lat > maxlat: continue
            if minlon is not None and lon < minlon: continue
            if maxlon is not None and lon > maxlon: continue
            if radius is not None and distance_degrees(clat, clon, lat, lon) > radius: continue
            matches.append(line)
        if "limit" not in q and len(matches) > limit:
            self.send(413, "Error 413: Request Entity Too Large\n\n%d matching events exceed the limit of %d.\n" % (len(matches), limit))
            self.log(n, q, 413, 0)
            return
        matches = matches[: min(limit, int(q.get("limit", limit)))]
        if not matches:
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.log(n, q, 204, 0)
            return
        data = (header + "\n" + "\n".join(matches) + "\n").encode()
        if fault.get("truncate"):
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            self.log(n, q, -200, len(matches))
            return
        self.send(200, data.decode())
        self.log(n, q, 200, len(matches))

ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
