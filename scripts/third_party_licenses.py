"""Prints the licences of everything compiled into Arbor's programs, for a release archive.

Every crate the `arbor` package depends on (normal and build dependencies, for every platform,
so the Windows-only ones too, as `cargo tree` resolves them): its name, version, licence
expression and repository from `cargo metadata`, then the text of each licence file it ships. The Rust standard library
and the MinGW-w64 runtime that the Windows programs link statically are named at the end.

Usage: python3 scripts/third_party_licenses.py > THIRD-PARTY-LICENSES.txt
"""

import json
import pathlib
import subprocess
import sys

LICENCE_FILE_PREFIXES = ("LICENSE", "LICENCE", "COPYING", "UNLICENSE", "NOTICE")

TOOLCHAIN_NOTE = """\
The Rust standard library (MIT OR Apache-2.0, https://github.com/rust-lang/rust) is compiled into
every program. The Windows programs also link, statically, the MinGW-w64 C runtime (Zope Public
License 2.1 and public domain, https://www.mingw-w64.org) and GCC's runtime support library
(GPL 3 with the GCC Runtime Library Exception, which permits this use).
"""


def metadata():
    output = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def shipped_packages(meta):
    """The packages Cargo compiles for the programs: normal and build dependencies of the
    workspace's own, with features resolved as in a build (`cargo tree`), for every target."""
    tree = subprocess.run(
        ["cargo", "tree", "--locked", "--edges", "normal,build", "--target", "all", "--prefix", "none"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # Lines read "name vX.Y.Z", with " (path)" for local packages and " (*)" for repeats.
    shipped = {tuple(line.split()[:2]) for line in tree.splitlines() if line.strip()}
    roots = {package_id for package_id in meta["workspace_members"]}
    packages = [
        package
        for package in meta["packages"]
        if (package["name"], "v" + package["version"]) in shipped and package["id"] not in roots
    ]
    return sorted(packages, key=lambda package: (package["name"], package["version"]))


def licence_files(package):
    folder = pathlib.Path(package["manifest_path"]).parent
    return sorted(
        path for path in folder.iterdir() if path.is_file() and path.name.upper().startswith(LICENCE_FILE_PREFIXES)
    )


def main():
    packages = shipped_packages(metadata())
    out = sys.stdout
    out.write(f"Arbor's programs contain these {len(packages)} crates besides its own code.\n\n")
    out.write(TOOLCHAIN_NOTE)
    for package in packages:
        out.write("\n" + "=" * 100 + "\n")
        out.write(f"{package['name']} {package['version']}\n")
        out.write(f"licence: {package.get('license') or 'see below'}\n")
        if package.get("repository"):
            out.write(f"source: {package['repository']}\n")
        files = licence_files(package)
        if not files:
            out.write("(the crate ships no licence file; its licence expression above applies)\n")
        for path in files:
            out.write(f"\n--- {path.name} ---\n")
            out.write(path.read_text(encoding="utf-8", errors="replace").rstrip() + "\n")


if __name__ == "__main__":
    main()
