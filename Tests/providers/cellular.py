"""The device's side of a silent check in the provider tests: open a check URL and follow
its redirects from a given source address, as a phone does over its mobile data. The
virtual operator's convention holds for every fake: 127.0.0.2 is the cellular path,
127.0.0.1 is Wi-Fi."""
import http.client
import json
import urllib.parse

CELLULAR = "127.0.0.2"
WIFI = "127.0.0.1"


def open_check_url(url, source=CELLULAR, method="GET", hops=10):
    """Follows up to `hops` redirects from `source`; returns (status, body as JSON or text)."""
    for _ in range(hops + 1):
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(source, 0))
        path = parts.path + ("?" + parts.query if parts.query else "")
        connection.request(method, path)
        reply = connection.getresponse()
        raw = reply.read()
        location = reply.getheader("Location")
        connection.close()
        if reply.status in (301, 302, 303, 307, 308) and location:
            url = urllib.parse.urljoin(url, location)
            # As browsers and URLSession do: only 307 and 308 repeat the method.
            method = method if reply.status in (307, 308) else "GET"
            continue
        try:
            return reply.status, json.loads(raw)
        except ValueError:
            return reply.status, raw.decode(errors="replace")
    raise AssertionError("too many redirects")
