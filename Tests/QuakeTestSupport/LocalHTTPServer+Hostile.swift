import Foundation

/// A hostile server on 127.0.0.1 for the download limits (issue 29): the first path component
/// picks the behaviour, the rest of the path (a feed name, an FDSN query) is ignored.
///
/// - `/stall/…`: a 200 head, then silence (the connection stays open).
/// - `/silent/…`: no answer at all: the request is read, and nothing is sent (the connection stays open).
/// - `/trickle/…`: a 200 head, then the start of a FeatureCollection and one space every 0.1 s.
/// - `/trickle-head/NAME`: the status line and headers one byte every 0.1 s; the log says
///   `trickling the head of NAME` when it begins.
/// - `/gzip-bomb/…`: `Content-Encoding: gzip` over 10 GiB of JSON whitespace inside
///   `{"type":"FeatureCollection","features":[`, about 10 MB on the wire (1000:1).
/// - `/endless/…`: a 200 `application/json` head without a length, then GeoJSON features as
///   fast as the connection takes them, never ending (the body of an uncompressed flood).
/// - `/file/NAME`: `directory/NAME` as it is, then `sent NAME` in the log once it is all written.
/// - `/gzip/NAME`: `directory/NAME` sent with `Content-Encoding: gzip` (a well-behaved server).
/// - `/gzip-twice/NAME`: `directory/NAME` gzipped, then sent with `Content-Encoding: gzip`.
/// - `/always-413/…`, `/always-500/…`: every request refused with that status (an FDSN service at
///   its worst); `/no-limit/…`: FDSN text with twice the `limit` asked for, whatever the window;
///   `/always-full/…`: exactly the `limit` asked for, at the window's start, whatever the window;
///   `/reset-after-1/…`: a full page (`limit` events) for the first window, one event for the
///   second (its first half), then a reset in the middle of every later answer.
///   Each mode answers 200 requests, then 404 (a fetch that never ends fails instead of hanging).
/// - `/reset/NAME`: a 200 head with the whole length, half of `directory/NAME`, then a TCP reset.
/// - `/truncated/NAME`: a 200 head with the whole length, half of `directory/NAME`, then a close.
/// - `/empty/…`: 204 No Content.
/// - `/keep/NAME`, `/keep-gzip/NAME`: as `/file/` and `/gzip/`, over HTTP/1.1 with the connection
///   kept open for the next request; the log says `keep PORT NAME` (the client's port).
extension LocalHTTPServer {
    static let hostileServer = #"""
    import http.server, io, os, socket, struct, sys, threading, time, urllib.parse, zlib
    counted, counting = {}, threading.Lock()
    directory = sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        def head(self, encoding=None, length=None):
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            if encoding:
                self.send_header('Content-Encoding', encoding)
            if length is not None:
                self.send_header('Content-Length', str(length))
            self.end_headers()
            self.wfile.flush()
        def do_GET(self):
            parts = self.path.split('?')[0].strip('/').split('/')
            mode, name = parts[0], parts[-1]
            if mode.startswith('keep'):
                self.protocol_version, self.close_connection = 'HTTP/1.1', False
                sys.stdout.write('keep %d %s\n' % (self.client_address[1], name))
                sys.stdout.flush()
                mode = 'gzip' if mode == 'keep-gzip' else 'file'
            try:
                if mode == 'silent':
                    time.sleep(3600)  # the hostile behaviour itself: a server that never answers
                elif mode == 'stall':
                    self.head()
                    time.sleep(3600)  # the hostile behaviour itself: a server that never sends a byte
                elif mode == 'trickle':
                    self.head()
                    self.wfile.write(b'{"type":"FeatureCollection","features":[')
                    while True:
                        self.wfile.flush()
                        time.sleep(0.1)  # trickling: the behaviour under test, not a wait
                        self.wfile.write(b' ')
                elif mode == 'trickle-head':
                    sys.stdout.write('trickling the head of %s\n' % name)
                    sys.stdout.flush()
                    for byte in b'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nX-Slow: ' + b'x' * 100000:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.1)  # trickling the headers
                elif mode == 'gzip-bomb':
                    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                    block = b' ' * (1 << 20)
                    first = compressor.compress(b'{"type":"FeatureCollection","features":[' + block)
                    first += compressor.flush(zlib.Z_FULL_FLUSH)
                    # After a full flush the same input compresses to the same bytes: repeat them.
                    again = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
                    self.head('gzip')
                    self.wfile.write(first)
                    for _ in range(10 * 1024):
                        self.wfile.write(again)
                elif mode == 'endless':
                    self.head()
                    self.wfile.write(b'{"type":"FeatureCollection","features":[')
                    feature = ('{"type":"Feature","properties":{"mag":2.5,"place":"Alaska","time":1700000000000,'
                               '"updated":1700000000000,"type":"earthquake"},"geometry":{"type":"Point",'
                               '"coordinates":[-150,61,10]},"id":"ak%d"},')
                    n = 0
                    while True:
                        self.wfile.write(''.join(feature % (n + i) for i in range(2000)).encode())
                        n += 2000
                elif mode == 'file':
                    body = open(os.path.join(directory, name), 'rb').read()
                    self.head(length=len(body))
                    self.wfile.write(body)
                    self.wfile.flush()
                    sys.stdout.write('sent %s\n' % name)
                    sys.stdout.flush()
                elif mode in ('always-413', 'always-500', 'no-limit', 'always-full', 'reset-after-1'):
                    with counting:
                        counted[mode] = counted.get(mode, 0) + 1
                        n = counted[mode]
                    if n > 200:
                        self.send_error(404, 'the test server answers 200 requests of a mode, no more')
                    elif mode == 'reset-after-1':
                        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                        start = query.get('starttime', ['2024-01-01T00:00:00.000'])[0]
                        count = int(query.get('limit', ['20'])[0]) if n == 1 else 1
                        body = ('#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n'
                                + ''.join('ra%d_%d|%s|61|-150|10|us|us|us|ra%d_%d|ml|2.5|us|Alaska\n' % (n, i, start, n, i) for i in range(count))).encode()
                        self.send_response(200)
                        self.send_header('Content-Type', 'text/plain')
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        if n <= 2:
                            self.wfile.write(body)
                        else:
                            self.wfile.write(body[:len(body) // 2])
                            self.wfile.flush()
                            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                            self.connection.close()
                            self.close_connection = True
                            self.wfile = io.BytesIO()
                    elif mode in ('no-limit', 'always-full'):
                        # no-limit: every window gets twice the limit asked for (a service that
                        # ignores `limit`); always-full: exactly the limit, at the window's start
                        # (a service that fills every answer, however small the window).
                        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                        limit = int(query.get('limit', ['20'])[0])
                        start = query.get('starttime', ['2024-01-01T00:00:00.000'])[0]
                        lines = ['#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName']
                        for i in range(2 * limit if mode == 'no-limit' else limit):
                            code = 'nl%d_%d' % (n, i)
                            time_text = '2024-01-01T00:00:00.000' if mode == 'no-limit' else start
                            lines.append('%s|%s|61|-150|10|us|us|us|%s|ml|2.5|us|Alaska' % (code, time_text, code))
                        body = ('\n'.join(lines) + '\n').encode()
                        self.send_response(200)
                        self.send_header('Content-Type', 'text/plain')
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    else:
                        status = 413 if mode == 'always-413' else 500
                        body = b'Error %d: the test service refuses every request\n' % status
                        self.send_response(status)
                        self.send_header('Content-Type', 'text/plain')
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                elif mode == 'truncated':
                    body = open(os.path.join(directory, name), 'rb').read()
                    self.head(length=len(body))
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                elif mode == 'reset':
                    body = open(os.path.join(directory, name), 'rb').read()
                    self.head(length=len(body))
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    # SO_LINGER 0: the close sends a TCP reset, as a peer or middlebox dropping the connection does.
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                    self.connection.close()
                    self.close_connection = True
                    self.wfile = io.BytesIO()
                elif mode == 'empty':
                    self.send_response(204)
                    self.end_headers()
                elif mode in ('gzip', 'gzip-twice'):
                    body = open(os.path.join(directory, name), 'rb').read()
                    body = zlib.compress(body, 6, 31) if mode == 'gzip' else zlib.compress(zlib.compress(body, 6, 31), 6, 31)
                    self.head('gzip', len(body))
                    self.wfile.write(body)
                else:
                    self.send_error(404)
            except (BrokenPipeError, ConnectionResetError):
                pass
        def log_message(self, format, *args):
            sys.stdout.write('"%s" %s -\n' % (self.requestline, args[1] if len(args) > 1 else '-'))
            sys.stdout.flush()
    http.server.ThreadingHTTPServer.daemon_threads = True
    http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Handler).serve_forever()
    """#

    /// Serves the behaviours above; `directory` holds the files `/gzip/NAME` sends.
    public convenience init(hostileIn directory: URL, log: String = "/dev/null") throws {
        try self.init(directory: directory, output: log) { port in
            ["python3", "-c", Self.hostileServer, String(port), directory.path]
        }
    }
}
