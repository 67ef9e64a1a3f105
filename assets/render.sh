#!/usr/bin/env bash
# Regenerates the icon renders from the SVG sources.
# Needs: librsvg2-bin (rsvg-convert), imagemagick (convert), icnsutils (png2icns).
#   apt-get install -y librsvg2-bin imagemagick icnsutils
set -euo pipefail
cd "$(dirname "$0")"
CONVERT=/usr/bin/convert   # the real ImageMagick one, not a stand-in earlier on PATH
mkdir -p icons
# 16 and 24 px come from pixel-tuned sources; 32 px and up from the master.
rsvg-convert -w 16 -h 16 paddock-16.svg -o icons/paddock-16.png
rsvg-convert -w 24 -h 24 paddock-24.svg -o icons/paddock-24.png
for s in 32 48 64 128 256 512; do
  rsvg-convert -w "$s" -h "$s" paddock.svg -o "icons/paddock-$s.png"
done
"$CONVERT" icons/paddock-{16,24,32,48,64,128,256}.png paddock.ico
png2icns paddock.icns icons/paddock-{16,32,48,128,256,512}.png >/dev/null
# Window icons bundled with the app (Stage.getIcons()).
res=../src/main/resources/dev/paddock/ui/icons
mkdir -p "$res"
for s in 16 32 64 128 256; do cp "icons/paddock-$s.png" "$res/"; done
