#!/usr/bin/env bash
# release.sh: packs a release of Arbor into target/dist/VERSION/:
#   arbor-VERSION-x86_64-linux.tar.gz    pbrain-arbor and arbor for Linux (glibc)
#   arbor-VERSION-x86_64-windows.zip     pbrain-arbor.exe and arbor.exe for Windows 10 and later
#   SHA256SUMS                           both archives' SHA-256, as sha256sum -c reads it
# Each archive holds one folder arbor-VERSION-PLATFORM/ with the two programs, README.md,
# LICENSE and THIRD-PARTY-LICENSES.txt (the licences of the crates compiled into them). Files
# carry the last commit's time and no owner, so the same commit built in the same folder packs
# the same bytes.
#
# VERSION must be Cargo.toml's version, which the programs report (ABOUT, --version). Run the
# tests first (bash scripts/test.sh): this builds and packs, and checks only that each program
# runs and names VERSION (the Windows ones under Wine, scripts/wine.sh).
#
# Usage: bash scripts/release.sh VERSION
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
die() { echo "release.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: bash scripts/release.sh VERSION" >&2; exit 2; }
VERSION=$1
CRATE_VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
[ "$VERSION" = "$CRATE_VERSION" ] ||
    die "VERSION $VERSION is not Cargo.toml's version $CRATE_VERSION (the programs report that one)"

[ -z "$(git status --porcelain --untracked-files=no)" ] ||
    die "the working tree has uncommitted changes: a release is packed from a commit"

cargo build --release --locked --bins
built_paths=$(bash scripts/build-windows.sh)
mapfile -t exes <<<"$built_paths"
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
LINUX=("$TARGET_DIR/release/pbrain-arbor" "$TARGET_DIR/release/arbor")
WINDOWS=("${exes[@]}")

for exe in "${LINUX[@]}"; do
    [ "$("$exe" --version)" = "$(basename "$exe") $VERSION" ] || die "$exe does not report version $VERSION"
done
for exe in "${WINDOWS[@]}"; do
    [ "$(bash scripts/wine.sh "$exe" --version | tr -d '\r')" = "$(basename "$exe" .exe) $VERSION" ] ||
        die "$exe does not report version $VERSION under Wine"
done

DIST="$TARGET_DIR/dist/$VERSION"
STAGE="$DIST/stage"
rm -rf "$DIST"
mkdir -p "$STAGE"
STAMP=$(git log -1 --format=%cI)
python3 scripts/third_party_licenses.py >"$STAGE/THIRD-PARTY-LICENSES.txt"

# stage PLATFORM PROGRAM...: the archive's folder, ready to pack.
stage() {
    local folder="$STAGE/arbor-$VERSION-$1"
    shift
    mkdir -p "$folder"
    cp "$@" README.md LICENSE "$STAGE/THIRD-PARTY-LICENSES.txt" "$folder/"
    chmod 0755 "$folder"/*arbor*
    chmod 0644 "$folder"/*.md "$folder"/*LICENSE*
    touch -d "$STAMP" "$folder" "$folder"/*
}

stage x86_64-linux "${LINUX[@]}"
linux="arbor-$VERSION-x86_64-linux.tar.gz"
tar -C "$STAGE" --sort=name --owner=0 --group=0 --numeric-owner -c "arbor-$VERSION-x86_64-linux" |
    gzip -n -9 >"$DIST/$linux"

stage x86_64-windows "${WINDOWS[@]}"
windows="arbor-$VERSION-x86_64-windows.zip"
(cd "$STAGE" && find "arbor-$VERSION-x86_64-windows" | sort | TZ=UTC zip -q -X -9 -@ "$DIST/$windows")

rm -rf "$STAGE"
(cd "$DIST" && sha256sum "$linux" "$windows" >SHA256SUMS)
echo "$DIST:"
(cd "$DIST" && ls -l "$linux" "$windows" SHA256SUMS && cat SHA256SUMS)
