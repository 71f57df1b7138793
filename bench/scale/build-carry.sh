#!/bin/bash
# Packs what bench/scale/scale.sh needs on a bare many-core machine (no network, no Node, no Redis,
# no wrk) into one folder, $DEST (default <repo>/.devcarry, git-ignored), about 45 MiB:
#   node.xz        this machine's node, stripped, xz with the x86 BCJ filter
#   app.tar.xz     the app: dist/ (built here) and the production dependencies, slimmed
#   tools.tar.xz   redis-server and wrk with their libraries that are not glibc's, the request lists,
#                  the wrk script, the readiness probe and the report
#   scale.sh       the run itself
# Needs: an installed checkout (`npm ci` done), node, redis-server, wrk, xz, strip. About 3 min on 2
# cores (xz -9e). Run from anywhere:  bash bench/scale/build-carry.sh
set -eu
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=${SRC:-$(cd "$HERE/../.." && pwd)}   # the checkout to pack (a clean worktree of a commit, say)
B=${B:-/tmp/natprod-carrybuild}
DEST=${DEST:-$SRC/.devcarry}
mkdir -p "$B" "$DEST"
(cd "$SRC" && npm run build --silent)
cd "$B"
# --- node (kept between builds: it only changes with the machine's node)
if [ ! -s node.xz ] || [ "$(cat node.version 2>/dev/null)" != "$(node --version)" ]; then
  strip --strip-unneeded "$(command -v node)" -o node.s
  xz -T1 -c --x86 --lzma2=preset=9e,dict=128MiB node.s > node.xz
  rm -f node.s; node --version > node.version
fi
# --- app: the built bundles and production dependencies only
rm -rf app && mkdir app
# tracked files (the bundles read data files beside their sources: shared/**/data, api/catalog/data)
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard -- . ':!test' ':!bench' ':!docs' ':!deploy' ':!.ci' | tar cf - --null -T - dist) | tar xf - -C app
cp -a "$SRC/node_modules" app/
(cd app && npm prune --omit=dev --offline --no-audit --no-fund >/dev/null 2>&1)
cd app
rm -f package-lock.json
nm=node_modules
# pdfjs-dist and its canvas: the PDF operations are not measured here (they answer 5xx without them)
find $nm/pdfjs-dist -mindepth 1 -maxdepth 1 ! -name package.json ! -name LICENSE -exec rm -rf {} +
rm -rf $nm/@napi-rs/canvas $nm/@napi-rs/canvas-linux-x64-gnu
# 3dmol: only build/3Dmol-min.js is served (the docs page)
find $nm/3dmol -mindepth 1 -maxdepth 1 ! -name package.json ! -name LICENSE ! -name build -exec rm -rf {} +
find $nm/3dmol/build -mindepth 1 ! -name 3Dmol-min.js -exec rm -rf {} +
# typescript: an optional peer, never loaded at run time (the bundles import mongoose: it stays)
rm -rf $nm/typescript $nm/.cache $nm/.package-lock.json
find $nm -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' -o -name '*.markdown' -o -name 'CHANGELOG*' -o -name '*.flow' \) -delete
find $nm -type d \( -name test -o -name tests -o -name __tests__ -o -name example -o -name examples -o -name benchmark -o -name benchmarks -o -name bench \) -prune -exec rm -rf {} +
find $nm/@msgpackr-extract -name '*musl*' -delete 2>/dev/null || true
find $nm -type d -empty -delete
find ../app/dist -name '*.map' -delete
cd "$B"
tar cf - app | xz -T2 -9e > app.tar.xz
# --- tools: redis-server (Debian's multi-call binary), wrk, the libraries glibc does not bring
rm -rf tools && mkdir -p tools/bin tools/lib tools/share
cp "$(readlink -f "$(command -v redis-server)")" tools/bin/redis-server
cp "$(command -v wrk)" tools/bin/wrk
for bin in tools/bin/redis-server tools/bin/wrk; do
  ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
    case ${lib##*/} in libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;; *) cp -L "$lib" tools/lib/ ;; esac
  done
done
node "$HERE/make-paths.mjs" 2000 tools/share
cp "$HERE/paths.lua" "$HERE/probe.mjs" "$HERE/report.mjs" "$HERE/model.mjs" tools/share/
tar cf - -C tools bin lib share | xz -T2 -9e > tools.tar.xz
cp node.xz app.tar.xz tools.tar.xz "$HERE/scale.sh" "$DEST/"
du -b "$DEST"/*; du -sb "$DEST"
