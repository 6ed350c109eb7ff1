"""photoedit's own schemathesis checks (scripts/schemathesis loads this
module through SCHEMATHESIS_HOOKS).

no_server_path: no problem answer (application/problem+json) names a path
of the server machine — neither a folder the run knows the server uses
(PHOTOEDIT_SERVER_PATHS: the library, the checkout, the home folder, the
temporary folder, separated by ':') nor any absolute file path (two or
more components, `/v1/…` API paths aside) that the request did not carry
itself (an echo of the client's own text is not a leak).
"""
import json
import os
import re

import schemathesis

KNOWN = [p for p in os.environ.get("PHOTOEDIT_SERVER_PATHS", "").split(":") if len(p) > 1]
# An absolute path after the start, a space, a quote, "(", "=" or ",":
# "/a/b", "~/a" — not an API path ("/v1/assets/…").
ABSOLUTE = re.compile(r"""(?:^|[\s'"(=,])(~?/(?!v1/)[^\s'"(),;:/]+/[^\s'"(),;:]*)""")


def server_path_in(text, sent=""):
    """The first server path `text` names, or None. A path the request
    itself carried (`sent`: its path, query, headers and body as text) is
    the client's own words echoed, not the server's."""
    for folder in KNOWN:
        if folder in text and folder not in sent:
            return folder
    for match in ABSOLUTE.finditer(text):
        if match.group(1) not in sent:
            return match.group(1)
    return None


def request_text(case):
    """What the request carried, as text (to tell an echo from a leak)."""
    parts = [case.path_parameters, case.query, case.headers, case.body, getattr(case, "formatted_path", "")]
    return " ".join(repr(p) for p in parts if p is not None)


def strings(value):
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@schemathesis.check
def no_server_path(ctx, response, case):
    """A problem's detail (or any of its members) names no server path."""
    if "problem+json" not in response.headers.get("content-type", [""])[0]:
        return None
    try:
        problem = json.loads(response.text)
    except ValueError:
        return None
    sent = request_text(case)
    for text in strings(problem):
        found = server_path_in(text, sent)
        if found:
            raise AssertionError(f"a problem names a server path ({found!r}): {text[:300]!r}")
    return None


if __name__ == "__main__":
    # A self-check (SchemathesisTests runs it): the detector finds what it must and only that.
    KNOWN[:] = ["/srv/photoedit-lib"]
    assert server_path_in("no such LUT in the LUT folders (/home/u/.config/photoedit/presets, /opt/x)") == "/home/u/.config/photoedit/presets"
    assert server_path_in("catalog /srv/photoedit-lib/catalog.sqlite: disk I/O error") == "/srv/photoedit-lib"
    assert server_path_in('VipsJpeg: "/tmp/photoedit-staging/abc.jpg" is not a known file format') == "/tmp/photoedit-staging/abc.jpg"
    assert server_path_in("~/Pictures/x.jpg: truncated") == "~/Pictures/x.jpg"
    assert server_path_in("fetch /v1/assets/{id}/render itself") is None
    assert server_path_in("…/abc.jpg: not a JPEG; fit/fill, w/h") is None
    assert server_path_in("unknown key '/a/b'", sent="{'where': '/a/b'}") is None
    print("schemathesis_checks: self-check passed")
