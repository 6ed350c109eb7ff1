#!/usr/bin/env bash
# Remakes coffee.dng.xmp: the history darktable itself writes for
# Tests/Fixtures/raw/coffee.dng (its default development: rawprepare,
# demosaic, temperature, highlights, filmic rgb, exposure, ...). darktable-cli
# embeds the history in the files it exports; that packet, taken out with
# exiftool, is the sidecar darktable reads back. Made with darktable 4.2.1
# (Debian 12). Nothing here is written by hand.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/../raw/coffee.dng" "$work/"
darktable-cli "$work/coffee.dng" "$work/export.jpg" --icc-type SRGB --apply-custom-presets false \
    --core --configdir "$work/config" --library :memory: --conf write_sidecar_files=never >/dev/null
exiftool -q -xmp -b "$work/export.jpg" > "$here/coffee.dng.xmp"
