#!/usr/bin/env bash
# build-windows.sh: builds pbrain-arbor.exe and arbor.exe for 64-bit Windows on this Linux
# machine and prints their paths.
#
# The machine's Rust toolchain has only the Linux standard library and cannot download another,
# so this takes Debian's Rust (rustc-web and cargo-web with rust-web-src, the standard library's
# source for exactly that compiler) and the MinGW-w64 cross compiler from the package registry,
# unpacked under target/windows-toolchain (no root needed once the package lists are current;
# nothing installed, so the Linux build and its toolchain stay as they are), and builds the
# standard library from source for the target (cargo's -Zbuild-std, through RUSTC_BOOTSTRAP).
# A second run reuses the unpacked toolchain; delete that folder to take newer packages.
#
# Target: x86_64-pc-windows-gnu (Windows 10 and later, what rustup ships). Its standard library
# seeds HashMap's default hasher from bcryptprimitives.dll, which Wine 8 lacks, so Arbor keeps
# that hasher out of both programs; scripts/test-windows.sh fails if the executables import it.
#
# Usage: bash scripts/build-windows.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NAME=build-windows.sh
# shellcheck source=scripts/debs.sh
source "$ROOT/scripts/debs.sh"

TARGET=x86_64-pc-windows-gnu
TOOLCHAIN="$ROOT/target/windows-toolchain"
PRIVATE="$TOOLCHAIN/root/usr"

for tool in apt-get dpkg-deb tar; do
    command -v "$tool" >/dev/null || { echo "$NAME: $tool is needed (a Debian machine)" >&2; exit 1; }
done

# The compiler, cargo, the standard library's source and the C cross toolchain (linker, C runtime,
# Windows import libraries), with whichever of their libraries this machine lacks.
if [ ! -f "$TOOLCHAIN/versions" ]; then
    echo "$NAME: fetching Debian's Rust and MinGW-w64 packages into $TOOLCHAIN" >&2
    wanted=(rustc-web cargo-web rust-web-src libstd-rust-web-dev gcc-mingw-w64-x86-64-win32
        binutils-mingw-w64-x86-64 mingw-w64-x86-64-dev)
    mapfile -t missing < <(debs_missing "${wanted[@]}")
    # Only the standard library's part of the compiler's source tree.
    DEBS_ONLY[rust-web-src]='./usr/lib/rustlib/* ./usr/src/rustc-*/library/*'
    debs_unpack "$TOOLCHAIN" $(printf '%s\n' "${wanted[@]}" "${missing[@]}" | sort -u)
fi

export LD_LIBRARY_PATH="$PRIVATE/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PRIVATE/bin:$PATH"
for tool in rustc cargo x86_64-w64-mingw32-gcc-win32; do
    "$PRIVATE/bin/$tool" --version >/dev/null 2>&1 ||
        { echo "$NAME: $PRIVATE/bin/$tool does not run; delete $TOOLCHAIN and run again" >&2; exit 1; }
done

cd "$ROOT"
# Cargo would refuse an older compiler too, but without saying that the cure is newer packages.
need=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
have=$("$PRIVATE/bin/rustc" --version | cut -d' ' -f2 | cut -d+ -f1)
if [ "$(printf '%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
    echo "$NAME: Debian's rustc-web is $have, older than the crate's rust-version $need; run apt-get update as root, delete $TOOLCHAIN and run again" >&2
    exit 1
fi
# The linker stamps the build time into the executable unless told not to; without the stamp the
# same source builds the same bytes. RUSTFLAGS from the environment would replace the target's
# flags, so it is left out.
env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS RUSTC_BOOTSTRAP=1 RUSTC="$PRIVATE/bin/rustc" \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc-win32 \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-C link-arg=-Wl,--no-insert-timestamp" \
    "$PRIVATE/bin/cargo" build --release --locked --bins --target "$TARGET" -Zbuild-std=std,panic_abort

OUT="${CARGO_TARGET_DIR:-$ROOT/target}/$TARGET/release"
echo "$OUT/pbrain-arbor.exe"
echo "$OUT/arbor.exe"
