#!/usr/bin/env bash
# The module's fuzz targets and benchmarks, as `go test -list` finds them in
# every package, so that a new one is run without being named anywhere:
#
#   targets.sh list fuzz|bench   one "package name" line per target
#   targets.sh check             fails when a Fuzz or Benchmark function of a
#                                _test.go file is missing from the lists
#                                (a build constraint or a broken package
#                                hiding it), and checks the fuzz targets'
#                                saved inputs name a target that exists
#   targets.sh fuzz FUZZTIME     fuzzes every target for FUZZTIME, in turn
#   targets.sh bench [FLAGS]     runs every benchmark of every package that
#                                has one: go test -run '^$' -bench . FLAGS
#
# Run from anywhere in the module. With TARGETS_LISTING set to a file name,
# the first listing is saved there and later runs read it (CI lists once
# for the check and the benchmarks).
set -euo pipefail
shopt -s inherit_errexit # a failed listing inside $(...) stops the script too
cd "$(dirname "$0")/.."

# listing: "package name" for every fuzz target and benchmark (top-level
# functions named Fuzz... or Benchmark...), from one go test -list, which
# builds every package's test binary. go test -list prints a package's
# names before its "ok" line.
listing() {
  local out
  if [ -n "${TARGETS_LISTING:-}" ] && [ -s "$TARGETS_LISTING" ]; then
    cat "$TARGETS_LISTING"
    return
  fi
  if ! out=$(go test -list '^(Fuzz|Benchmark)' ./... 2>&1); then
    printf '%s\n' "$out" >&2
    echo "targets.sh: go test -list failed" >&2
    return 1
  fi
  printf '%s\n' "$out" | awk '
    /^(Fuzz|Benchmark)/ && NF == 1 { names[++n] = $1; next }
    $1 == "ok" { for (i = 1; i <= n; i++) print $2, names[i]; n = 0; next }
    $1 == "?" { n = 0 }' | if [ -n "${TARGETS_LISTING:-}" ]; then tee "$TARGETS_LISTING"; else cat; fi
}

# targets PREFIX [LISTING]: the lines of LISTING (default: a new listing)
# whose name starts with PREFIX.
targets() {
  local all
  if [ $# -ge 2 ]; then all=$2; else all=$(listing); fi
  printf '%s\n' "$all" | awk -v prefix="$1" 'index($2, prefix) == 1'
}

# declared PREFIX: "package name" for every func PREFIX...(x *testing.B) or
# (x *testing.F) in the module's _test.go files (tracked, or new and not
# ignored; -s for those a working tree has deleted), from the source
# alone.
declared() {
  local module
  module=$(go list -m)
  git ls-files -z --cached --others --exclude-standard '*_test.go' | xargs -0 grep -sHE "^func $1[A-Za-z0-9_]*\(\w+ \*testing\.[BF]\)" |
    sed -E "s#^(.*)/[^/]*_test\.go:func ($1[A-Za-z0-9_]*)\(.*#$module/\1 \2#; s#^[^/ ]*_test\.go:func ($1[A-Za-z0-9_]*)\(.*#$module \1#" |
    sort -u
}

kind() {
  case "$1" in
    fuzz) echo Fuzz ;;
    bench) echo Benchmark ;;
    *) echo "targets.sh: fuzz or bench, not $1" >&2; return 1 ;;
  esac
}

check() {
  local bad=0 prefix all listed missing
  all=$(listing)
  for prefix in Fuzz Benchmark; do
    listed=$(targets "$prefix" "$all" | sort -u)
    missing=$(comm -23 <(declared "$prefix") <(printf '%s\n' "$listed"))
    if [ -n "$missing" ]; then
      echo "declared in a _test.go file but not listed by go test -list (so never run by CI or just):"
      printf '  %s\n' "$missing"
      bad=1
    fi
    echo "$(printf '%s\n' "$listed" | grep -c .) ${prefix} targets in $(printf '%s\n' "$listed" | cut -d' ' -f1 | sort -u | grep -c .) packages"
  done
  # Saved inputs (testdata/fuzz/NAME/...) are run by plain go test only
  # while NAME is a fuzz target of their package.
  local dir pkg name module
  module=$(go list -m)
  listed=$(targets Fuzz "$all")
  while IFS= read -r dir; do
    [ -d "$dir" ] || continue # tracked, but deleted from the working tree
    name=$(basename "$dir")
    pkg=$(dirname "$(dirname "$(dirname "$dir")")")
    [ "$pkg" = . ] && pkg=$module || pkg=$module/$pkg
    if ! printf '%s\n' "$listed" | grep -qx "$pkg $name"; then
      echo "saved fuzz inputs $dir name no fuzz target of $pkg"
      bad=1
    fi
  done < <(git ls-files --cached --others --exclude-standard '*/testdata/fuzz/*' 'testdata/fuzz/*' | xargs -r -n1 dirname | sort -u)
  return $bad
}

case "${1:-}" in
  list)
    targets "$(kind "${2:?fuzz or bench}")"
    ;;
  check)
    check
    ;;
  fuzz)
    fuzztime=${2:?FUZZTIME, e.g. 5m}
    list=$(targets Fuzz)
    [ -n "$list" ] || { echo "targets.sh: no fuzz target found" >&2; exit 1; }
    while read -r pkg name; do
      echo "== $pkg $name ($fuzztime)"
      go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "$pkg"
    done <<<"$list"
    ;;
  bench)
    shift
    pkgs=$(targets Benchmark | cut -d' ' -f1 | sort -u)
    [ -n "$pkgs" ] || { echo "targets.sh: no benchmark found" >&2; exit 1; }
    # shellcheck disable=SC2086 # one word per package
    go test -run '^$' -bench . "$@" $pkgs
    ;;
  *)
    sed -n '2,14s/^# \{0,1\}//p' "$0" >&2
    exit 2
    ;;
esac
