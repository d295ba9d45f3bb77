#!/usr/bin/env bash
# scripts/install-deps brings back the PyPI modules the tests import when /usr/bin/python3 has
# lost them. The machine's own files are never touched: in a private mount namespace a copy of
# the site-packages folder, without those modules, is mounted over the real one; the namespace,
# and with it the removal, ends with this script. Needs root (CI is) and PyPI or pip's cache.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python=/usr/bin/python3
requirements="$root/Tests/python/requirements.txt"
modules=$(sed -n 's/^\([A-Za-z0-9_-]*\)==.*/\1/p' "$requirements")
site=$("$python" -c 'import sysconfig; print(sysconfig.get_path("purelib", "posix_local"))')
[[ -d "$site" ]] || { echo "setup test: no $site (run scripts/install-deps first)" >&2; exit 1; }

exec unshare --mount --propagation private bash -euo pipefail -s "$root" "$python" "$site" $modules <<'INNER'
root=$1 python=$2 site=$3; shift 3
copy=$(mktemp -d)
mount -t tmpfs setup-test "$copy"
cp -a "$site/." "$copy/"
for module in "$@"; do
    rm -rf "$copy/$module" "$copy/$module"-*.dist-info "$copy/${module//-/_}"-*.dist-info
done
mount --bind "$copy" "$site"
for module in "$@"; do
    if "$python" -c "import $module" 2>/dev/null; then
        echo "setup test: $module still imports after its removal: the test cannot fail" >&2; exit 1
    fi
done
"$root/scripts/install-deps"
for module in "$@"; do
    "$python" -c "import $module" || { echo "setup test: install-deps did not bring back $module for $python" >&2; exit 1; }
done
"$root/scripts/check-deps" --quiet
echo "setup test: install-deps brought back $* for $python"
INNER
