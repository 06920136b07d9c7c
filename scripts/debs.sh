# debs.sh: sourced by build-windows.sh and wine.sh. Brings Debian packages from the package
# registry and unpacks them into a private folder instead of installing them, so the machine's
# own toolchain and libraries stay as they are and, once the package lists are current, no root
# is needed. The caller sets NAME (its own name, for messages).

# Tar patterns by package name: debs_unpack unpacks such a package only where they match.
declare -A DEBS_ONLY=()

# debs_missing PACKAGE...: the packages and those of their dependencies that this machine lacks,
# one a line, as apt would install them (no recommends). As root it refreshes the package lists
# first: lists left from when the machine's image was made name superseded versions (seen: lists
# that offered only Debian 12's first rustc-web, 1.85, while the security archive had 1.96).
# Otherwise it takes the lists as they are, or fails with one line.
debs_missing() {
    local plan
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq >/dev/null 2>&1 || true
    fi
    plan=$(apt-get install -s --no-install-recommends "$@" 2>&1) || {
        echo "$NAME: Debian's package lists do not offer $*: $(grep -m1 '^E:' <<<"$plan") (run apt-get update as root)" >&2
        return 1
    }
    awk '/^Inst / { print $2 }' <<<"$plan"
}

# debs_unpack DEST PACKAGE...: downloads the packages' current versions into DEST/debs and unpacks
# them into DEST/root (a package in DEBS_ONLY only where its patterns match), then lists what it
# unpacked in DEST/versions, which callers take as the sign that DEST is complete.
debs_unpack() {
    local dest=$1 deb package
    shift
    rm -rf "$dest"
    mkdir -p "$dest/debs" "$dest/root"
    if ! (cd "$dest/debs" && apt-get download "$@" >"$dest/download.log" 2>&1); then
        echo "$NAME: apt-get download failed: $(grep -m1 '^E:' "$dest/download.log")" >&2
        return 1
    fi
    for deb in "$dest"/debs/*.deb; do
        package=$(dpkg-deb -f "$deb" Package)
        if [ -n "${DEBS_ONLY[$package]:-}" ]; then
            # Word splitting on purpose: the patterns are separated by spaces.
            # shellcheck disable=SC2086
            dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dest/root" --wildcards ${DEBS_ONLY[$package]}
        else
            dpkg-deb -x "$deb" "$dest/root"
        fi
        echo "$package $(dpkg-deb -f "$deb" Version)" >>"$dest/versions.part"
    done
    # Some packages (libpcre3, which Debian 12's cargo-web 1.85 needs) still ship under /lib; a
    # merged-/usr system finds them through /usr/lib, the only folders the callers search.
    for dir in bin sbin lib lib64; do
        if [ -d "$dest/root/$dir" ]; then
            mkdir -p "$dest/root/usr/$dir"
            cp -a "$dest/root/$dir/." "$dest/root/usr/$dir/"
            rm -rf "${dest:?}/root/$dir"
        fi
    done
    rm -rf "$dest/debs"
    mv "$dest/versions.part" "$dest/versions"
}
