# Which Kokkos the bootstrap builds, and its source tree (sourced by bootstrap.sh, not run).
# The one place that decides, first that applies:
#   1. Kokkos_ROOT        an installed Kokkos: nothing is built (origin "root");
#   2. NBK_KOKKOS_SOURCE  a Kokkos source tarball (.tar.gz, .tgz, .tar.xz, .tar) or folder,
#                         optionally checked against NBK_KOKKOS_SHA256 (origin "source");
#   3. the pinned release, $release_url, checked against its sha256: taken from the cache,
#      else downloaded where the network allows (NBK_KOKKOS_DOWNLOAD=0 skips this step)
#      (origin "release");
#   4. Debian's trilinos source package, which carries Kokkos 3.4.01 (origin "debian").
# A patch cmake/patches/kokkos-<version>-cuda13.patch, where one exists for that version,
# is applied to a copy of the tree; an unpatched tree is used as it is.
# Sets: kokkos_origin, kokkos_version (as Kokkos spells it: 3.4.01, 4.6.01), kokkos_src
# (the tree to build; empty for "root"), patch_file (may be empty) and source_key (what
# identifies the tree beyond version and patch; empty for Debian's, whose cache keys predate it).

release_version=4.6.01
release_url="https://github.com/kokkos/kokkos/releases/download/$release_version/kokkos-$release_version.tar.gz"
release_sha256=b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a
debian_version=3.4.01
trilinos_source=trilinos   # Debian source package that carries packages/kokkos

# Where the chosen Kokkos comes from, in words for the log.
origin_text() {
  case $kokkos_origin in
    root)    echo "Kokkos_ROOT=$Kokkos_ROOT" ;;
    source)  echo "NBK_KOKKOS_SOURCE=$NBK_KOKKOS_SOURCE" ;;
    release) echo "the release tarball ($release_url)" ;;
    debian)  echo "Debian's $trilinos_source source package" ;;
  esac
}

# Kokkos' version as its releases name it (4.6.01), read from a source tree.
tree_version() {
  local f=$1/CMakeLists.txt major minor patch
  major=$(sed -nE 's/^ *set\(Kokkos_VERSION_MAJOR ([0-9]+)\).*/\1/p' "$f" 2>/dev/null | head -1)
  minor=$(sed -nE 's/^ *set\(Kokkos_VERSION_MINOR ([0-9]+)\).*/\1/p' "$f" 2>/dev/null | head -1)
  patch=$(sed -nE 's/^ *set\(Kokkos_VERSION_PATCH ([0-9]+)\).*/\1/p' "$f" 2>/dev/null | head -1)
  [[ -n $major && -n $minor && -n $patch ]] || return 1
  printf '%d.%d.%02d\n' "$major" "$minor" "$((10#$patch))"
}

# The patched copy of a pristine tree (one per patch content: a changed patch gets a fresh
# tree, never one patched with an older version that other checkouts may still build from).
patched_tree() {
  local pristine=$1 name=$2
  [[ -f $patch_file ]] || { echo "$pristine"; return; }
  local pkey; pkey=$(sha1sum < "$patch_file" | cut -c1-10)
  local src="$NBK_CACHE/src/$name-patch-$pkey"
  if [[ -f "$src/.patched" ]]; then echo "$src"; return; fi
  local work; work=$(mktemp -d "$NBK_CACHE/src/.patch.XXXXXX")
  cp -a "$pristine/." "$work/"
  rm -f "$work/.complete"
  (cd "$work" && patch -p1 -s < "$patch_file") || die "$patch_file does not apply to Kokkos $kokkos_version"
  touch "$work/.patched"
  mv -T "$work" "$src" 2>/dev/null || rm -rf "$work"
  [[ -f "$src/.patched" ]] || die "could not place the patched Kokkos source at $src"
  echo "$src"
}

# A tarball extracted once into the cache, keyed by its content.
extracted_tarball() {
  local tarball=$1 key=$2
  local dest="$NBK_CACHE/src/kokkos-tarball-$key"
  [[ -f "$dest/.complete" ]] && { echo "$dest"; return; }
  mkdir -p "$NBK_CACHE/src"
  local work; work=$(mktemp -d "$NBK_CACHE/src/.extract.XXXXXX")
  tar -xf "$tarball" -C "$work" 2>/dev/null || { rm -rf "$work"; usage_error "NBK_KOKKOS_SOURCE=$tarball: not a tarball tar can extract"; }
  local trees=("$work"/*/CMakeLists.txt)
  [[ -f ${trees[0]} && ${#trees[@]} == 1 ]] ||
    { rm -rf "$work"; usage_error "NBK_KOKKOS_SOURCE=$tarball: expected one top folder holding a Kokkos source"; }
  local tree; tree=$(dirname "${trees[0]}")
  touch "$tree/.complete"
  mv -T "$tree" "$dest" 2>/dev/null || true   # another run may have won the race
  rm -rf "$work"
  [[ -f "$dest/.complete" ]] || die "could not place the Kokkos source at $dest"
  echo "$dest"
}

# The pinned release tarball: from the cache, else downloaded and checked. Fails with status
# 1 (one log line) where it cannot be had, 2 when what came is not the pinned release.
release_tarball() {
  local cached="$NBK_CACHE/src/kokkos-$release_version.tar.gz"
  [[ -f $cached ]] && { echo "$cached"; return 0; }
  [[ "${NBK_KOKKOS_DOWNLOAD:-1}" == 0 ]] && return 1
  command -v curl >/dev/null 2>&1 || { log "no curl: Kokkos $release_version not downloaded"; return 1; }
  mkdir -p "$NBK_CACHE/src"
  local part; part=$(mktemp "$NBK_CACHE/src/.download.XXXXXX")
  if ! curl -fsSL --connect-timeout 10 --max-time 600 -o "$part" "$release_url" 2>/dev/null; then
    rm -f "$part"; log "Kokkos $release_version: $release_url not reachable"; return 1
  fi
  if [[ $(sha256sum < "$part" | cut -d' ' -f1) != "$release_sha256" ]]; then
    rm -f "$part"; usage_error "$release_url: sha256 differs from the pinned $release_sha256"
  fi
  mv "$part" "$cached"
  echo "$cached"
}

# Sets kokkos_src and friends for a tarball or folder given by the user or the release.
use_source() {
  local given=$1 origin=$2 sha=${3:-}
  if [[ -f $given ]]; then
    local digest; digest=$(sha256sum < "$given" | cut -d' ' -f1)
    [[ -z $sha || $digest == "$sha" ]] ||
      usage_error "NBK_KOKKOS_SOURCE=$given: sha256 $digest, expected $sha (NBK_KOKKOS_SHA256)"
    source_key=tarball-${digest:0:16}
    kokkos_src=$(extracted_tarball "$given" "${digest:0:16}")
  elif [[ -d $given ]]; then
    [[ -z $sha ]] || usage_error "NBK_KOKKOS_SHA256 is for a tarball; NBK_KOKKOS_SOURCE=$given is a folder"
    # A folder may change under us: its key is its path and every file's size and date.
    source_key=folder-$( (cd "$given" && echo "$PWD" && find . -type f ! -path './.git/*' -printf '%P %s %T@\n' | sort) |
                          sha1sum | cut -c1-16)
    kokkos_src=$(cd "$given" && pwd)
  else
    usage_error "NBK_KOKKOS_SOURCE=$given: no such file or folder"
  fi
  kokkos_version=$(tree_version "$kokkos_src") ||
    usage_error "NBK_KOKKOS_SOURCE=$given: not a Kokkos source (no Kokkos_VERSION_* in its CMakeLists.txt)"
  kokkos_origin=$origin
  patch_file="$repo/cmake/patches/kokkos-$kokkos_version-cuda13.patch"
  [[ -f $patch_file ]] || patch_file=""
  kokkos_src=$(patched_tree "$kokkos_src" "kokkos-$kokkos_version-$source_key")
}

choose_kokkos_source() {
  kokkos_src="" patch_file="" source_key=""
  if [[ -n "${Kokkos_ROOT:-}" ]]; then
    [[ -d $Kokkos_ROOT ]] || usage_error "Kokkos_ROOT=$Kokkos_ROOT: no such folder"
    local config; config=$(ls "$Kokkos_ROOT"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake 2>/dev/null | head -1 || true)
    [[ -n $config ]] || usage_error "Kokkos_ROOT=$Kokkos_ROOT: not a Kokkos install (no lib*/cmake/Kokkos/KokkosConfigVersion.cmake)"
    # CMake spells it 4.6.1; releases, the cache and the build folders 4.6.01.
    local parts; IFS=. read -r -a parts <<<"$(sed -nE 's/^ *set\(PACKAGE_VERSION "([^"]+)"\).*/\1/p' "$config" | head -1)"
    ((${#parts[@]} == 3)) || usage_error "Kokkos_ROOT=$Kokkos_ROOT: no version in $config"
    kokkos_version=$(printf '%d.%d.%02d' "${parts[0]}" "${parts[1]}" "$((10#${parts[2]}))")
    kokkos_origin=root
    return
  fi
  if [[ -n "${NBK_KOKKOS_SOURCE:-}" ]]; then
    use_source "$NBK_KOKKOS_SOURCE" source "${NBK_KOKKOS_SHA256:-}"
    return
  fi
  local tarball rc=0
  tarball=$(release_tarball) || rc=$?
  case $rc in
    0) use_source "$tarball" release "$release_sha256"; return ;;
    1) ;;                    # not to be had here: Debian's
    *) exit "$rc" ;;
  esac
  kokkos_origin=debian kokkos_version=$debian_version
  patch_file="$repo/cmake/patches/kokkos-$debian_version-cuda13.patch"
  local pristine="$NBK_CACHE/src/kokkos-$debian_version-debian"
  fetch_debian_source "$pristine"
  kokkos_src=$(patched_tree "$pristine" "kokkos-$debian_version")
}

# Debian's apt sources, as deb-src entries in a list of our own: deb822 files
# (*.sources: "Types: deb" -> "Types: deb-src") and classic one-line lists
# (sources.list and *.list: "deb URI ..." -> "deb-src URI ..."), whichever the machine has.
write_deb_src_lists() {
  local parts=$1 etc=${2:-/etc/apt} f n=0
  for f in "$etc"/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    sed -E 's/^Types:.*/Types: deb-src/' "$f" > "$parts/src$((n++)).sources"
  done
  for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    sed -nE 's/^[[:space:]]*deb[[:space:]]+/deb-src /p' "$f" > "$parts/src$((n++)).list"
  done
  grep -qsE '^(Types: deb-src|deb-src )' "$parts"/* ||
    die "no Debian apt source found ($etc/sources.list.d/*.sources or $etc/sources.list) to derive a deb-src list from"
}

# Kokkos as Debian ships it, extracted once and never patched. Fetched through apt with a
# private deb-src list, so the system's apt configuration is untouched and apt verifies
# the tarball against the signed index. Built in a scratch directory and renamed into
# place, so a concurrent or interrupted run never leaves a half tree behind.
fetch_debian_source() {
  local pristine=$1
  [[ -f "$pristine/.complete" ]] && return
  mkdir -p "$NBK_CACHE/src"
  local work; work=$(mktemp -d "$NBK_CACHE/src/.fetch.XXXXXX")
  mkdir -p "$work/parts" "$work/lists/partial" "$work/dl"
  write_deb_src_lists "$work/parts"
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts"
              -o "Dir::State::Lists=$work/lists" -o Debug::NoLocking=1)
  log "fetching Debian source package '$trilinos_source' (Kokkos $debian_version lives in it)"
  apt-get "${opts[@]}" update -qq > "$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; die "apt-get update for the deb-src list failed"; }
  (cd "$work/dl" && apt-get "${opts[@]}" source --download-only "$trilinos_source") >> "$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; die "apt-get source $trilinos_source failed"; }
  local tarball; tarball=$(ls "$work"/dl/"${trilinos_source}"_*.orig.tar.gz)
  log "extracting packages/kokkos"
  mkdir -p "$work/x"
  tar -xzf "$tarball" -C "$work/x" --wildcards '*/packages/kokkos/*'
  local tree=("$work"/x/*/packages/kokkos)
  [[ $(tree_version "${tree[0]}") == "$debian_version" ]] ||
    die "the $trilinos_source source does not carry Kokkos $debian_version (see ${tree[0]}/CMakeLists.txt)"
  touch "${tree[0]}/.complete"
  mv -T "${tree[0]}" "$pristine" 2>/dev/null || true   # another run may have won the race
  rm -rf "$work"
  [[ -f "$pristine/.complete" ]] || die "could not place the Kokkos source at $pristine"
}
