#!/usr/bin/env python3
"""The generated Python client (clients/python/photoedit_client) against a
real `photoedit serve` that scripts/test-clients started with a token and a
signing key on an empty library:

    test_client.py --base-url http://127.0.0.1:PORT --token TOKEN --samples DIR

Upload (a name with spaces and a plus), the default listing call, a listing
whose `where` holds spaces, an edit with If-Match and the 412 as a typed
Problem, a signed render URL fetched without a token, content editing (the
editing input, this editor's own render of its base — inverted with
Pillow — committed as the output) and the change feed. One line per check;
exit status 1 when any failed.
"""
import argparse
import base64
import io
import os
import sys

# The installed package (scripts/test-clients pip-installs it and puts it on
# PYTHONPATH); run from a checkout without installing it, the sources beside
# this folder.
try:
    import photoedit_client  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import httpx  # noqa: E402
from PIL import Image, ImageOps, ImageStat  # noqa: E402

from photoedit_client import AuthenticatedClient, Client  # noqa: E402
from photoedit_client.api.edits import commit_editing_output, edit_asset, editing_input  # noqa: E402
from photoedit_client.api.feed import list_changes  # noqa: E402
from photoedit_client.api.operations import get_capabilities  # noqa: E402
from photoedit_client.api.photos import get_asset, list_assets, upload_asset  # noqa: E402
from photoedit_client.api.renders import render_url  # noqa: E402
from photoedit_client.models import (  # noqa: E402
    AdjustmentDataIn,
    Asset,
    ChainEdit,
    EditingInput,
    EditingInputOptions,
    EditingOutput,
    EditorFormatsItem,
    ListAssetsResponse200,
    Problem,
    RenderUrlFormat,
    UploadedAsset,
)
from photoedit_client.types import File  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def mean(image):
    return sum(ImageStat.Stat(image.convert("L")).mean)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--samples", required=True)
    parser.add_argument("--installed", help="the folder the package was installed into: check it is the one imported")
    args = parser.parse_args()
    if args.installed:
        import photoedit_client

        where = os.path.abspath(photoedit_client.__file__)
        check(where.startswith(os.path.abspath(args.installed) + os.sep), f"the installed package is the one tested ({where})")
    client = AuthenticatedClient(base_url=args.base_url, token=args.token, timeout=httpx.Timeout(60.0))

    capabilities = get_capabilities.sync(client=client)
    check(capabilities.url_signing and capabilities.tokens, f"capabilities: signs URLs, needs tokens ({capabilities.to_dict()})")

    # --- Upload: the name travels form-encoded (spaces as %20, a plus as %2B).
    with open(os.path.join(args.samples, "coffee.jpg"), "rb") as f:
        answer = upload_asset.sync_detailed(client=client, filename="My Holiday Photo.jpg",
                                            body=File(payload=f, file_name="coffee.jpg", mime_type="image/jpeg"))
    photo = answer.parsed
    check(answer.status_code == 201 and isinstance(photo, UploadedAsset), f"upload: 201 ({answer.status_code})")
    check(photo.original_filename == "My Holiday Photo.jpg", f"upload keeps the spaces ({photo.original_filename!r})")
    with open(os.path.join(args.samples, "rotated-exif.jpg"), "rb") as f:
        other = upload_asset.sync(client=client, filename="one+one.jpg", body=File(payload=f, mime_type="image/jpeg"))
    check(isinstance(other, UploadedAsset) and other.original_filename == "one+one.jpg",
          f"upload keeps a plus ({getattr(other, 'original_filename', other)!r})")
    bad = upload_asset.sync_detailed(client=client, filename="../../etc/x.jpg", body=File(payload=io.BytesIO(b"x")))
    check(bad.status_code == 400 and isinstance(bad.parsed, Problem) and bad.parsed.code == "invalid-parameter",
          f"a file name with folders is 400 invalid-parameter ({bad.status_code} {getattr(bad.parsed, 'code', None)})")

    # --- Listing: the generated default call, then a where with spaces.
    listing = list_assets.sync(client=client)
    check(isinstance(listing, ListAssetsResponse200) and len(listing.assets) == 2,
          f"list_assets.sync(client) as generated lists both photos ({len(getattr(listing, 'assets', []))})")
    found = list_assets.sync(client=client, where='name="My Holiday Photo.jpg" or width >= 100000')
    check(isinstance(found, ListAssetsResponse200) and [a.id for a in found.assets] == [photo.id],
          f"where with spaces finds the photo ({[a.original_filename for a in getattr(found, 'assets', [])]})")
    thumbs = list_assets.sync(client=client, thumbnail=64)
    check(isinstance(thumbs, ListAssetsResponse200) and all("sig=" in a.thumbnail_url for a in thumbs.assets),
          "thumbnail=64 gives signed thumbnail URLs")

    # --- Edit with If-Match; the stale one is a typed 412.
    edited = edit_asset.sync_detailed(photo.id, client=client, body=ChainEdit(chain="exposure=+0.5,crop=1:1"), if_match=photo.etag)
    check(edited.status_code == 200 and isinstance(edited.parsed, Asset) and edited.parsed.revision == 1,
          f"edit with If-Match: revision 1 ({edited.status_code})")
    check(edited.parsed.chain is not None and "exposure" in edited.parsed.chain, f"the chain is stored ({edited.parsed.chain!r})")
    stale = edit_asset.sync_detailed(photo.id, client=client, body=ChainEdit(chain="exposure=-1"), if_match=photo.etag)
    check(stale.status_code == 412 and isinstance(stale.parsed, Problem) and stale.parsed.code == "stale-revision"
          and stale.parsed.current_revision == 1, f"a stale If-Match is a typed 412 stale-revision ({getattr(stale.parsed, 'code', stale.parsed)})")
    lut = edit_asset.sync_detailed(photo.id, client=client, body=ChainEdit(chain="lut=nope.cube"), if_match=edited.parsed.etag)
    check(lut.status_code == 400 and lut.parsed.code == "unknown-lut" and "/" not in lut.parsed.detail,
          f"a missing LUT is 400 unknown-lut naming no path ({getattr(lut.parsed, 'detail', lut.parsed)})")

    # --- A signed render URL, fetched with no token.
    signed = render_url.sync(photo.id, client=client, w=256, format_=RenderUrlFormat.JPEG)
    plain = Client(base_url=args.base_url)
    fetched = plain.get_httpx_client().get(signed.url)
    check(fetched.status_code == 200 and fetched.headers["content-type"] == "image/jpeg" and fetched.content[:2] == b"\xff\xd8",
          f"the signed URL renders without a token ({fetched.status_code})")
    unsigned = plain.get_httpx_client().get(f"/v1/assets/{photo.id}/render?w=256")
    check(unsigned.status_code == 401, f"the same render without signature or token is 401 ({unsigned.status_code})")
    check(Image.open(io.BytesIO(fetched.content)).size == (256, 256), "the render is the square crop, 256 px")

    # --- Content editing: input, this editor's own render of its base, commit.
    formats = [EditorFormatsItem(format_identifier="com.example.invert", format_versions=["1.0"])]
    given = editing_input.sync(photo.id, client=client, body=EditingInputOptions(formats=formats))
    check(isinstance(given, EditingInput) and given.revision == 1, f"editing input at revision 1 ({getattr(given, 'revision', given)}, base {getattr(given, 'base', None)})")
    base = client.get_httpx_client().get(given.base_image.url)
    check(base.status_code == 200, f"the base image loads with the token ({base.status_code})")
    # The photoedit edit is not this editor's format: the base is the current render.
    image = ImageOps.exif_transpose(Image.open(io.BytesIO(base.content))).convert("RGB")
    inverted = ImageOps.invert(image)
    out = io.BytesIO()
    inverted.save(out, "JPEG", quality=90)
    output = EditingOutput(
        adjustment_data=AdjustmentDataIn(format_identifier="com.example.invert", format_version="1.0",
                                         data=base64.b64encode(b'{"invert": true}').decode()),
        base=given.base,
        render=File(payload=io.BytesIO(out.getvalue()), file_name="render.jpg", mime_type="image/jpeg"))
    committed = commit_editing_output.sync_detailed(photo.id, client=client, body=output, if_match=given.etag)
    check(committed.status_code == 200 and isinstance(committed.parsed, Asset) and committed.parsed.revision == 2,
          f"the editor's output is committed: revision 2 ({committed.status_code} {getattr(committed.parsed, 'revision', committed.parsed)})")
    again = commit_editing_output.sync_detailed(photo.id, client=client, body=output, if_match=given.etag)
    check(again.status_code == 412 and isinstance(again.parsed, Problem), f"committing it twice is 412 ({again.status_code})")
    now = client.get_httpx_client().get(f"/v1/assets/{photo.id}/render?w=64&format=png")
    served = Image.open(io.BytesIO(now.content))
    ours = inverted.resize(served.size)
    check(abs(mean(served) - mean(ours)) < 8 and abs(mean(served) - mean(image.resize(served.size))) > 30,
          f"the photo now renders as the editor's output (mean {mean(served):.0f}, ours {mean(ours):.0f}, before {mean(image):.0f})")
    current = get_asset.sync(photo.id, client=client)
    check(current.adjustment_data is not None and current.adjustment_data.format_identifier == "com.example.invert",
          f"its adjustment data is the editor's ({getattr(current.adjustment_data, 'format_identifier', None)})")

    # --- The change feed.
    feed = list_changes.sync(client=client, since=0)
    kinds = [(c.kind.value, c.id) for c in feed.changes]
    check(("insert", photo.id) in kinds and ("update", photo.id) in kinds and not feed.more and feed.next_ == feed.latest,
          f"the change feed has the photo's insert and updates ({kinds})")
    later = list_changes.sync(client=client, since=feed.latest)
    check(later.changes == [] and later.next_ == feed.latest, "nothing after the latest sequence")

    print(f"{len(failures)} failed" if failures else "python client: all checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
