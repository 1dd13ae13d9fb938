#!/bin/bash
# A runnable copy of this repository in DIR, for measuring two versions side by side (docs/benchmarks.md, "How changes
# are chosen"): the tracked files of COMMIT, or of the working tree (tracked and untracked, not ignored) when COMMIT is
# omitted, plus what git ignores but a benchmark needs — the judge's pair weights and the sample corpus's vectors
# (copied: the two sides must use the same files) and the benchmark indexes (.bench-cache) and judge runs (.judge-runs),
# shared by symbolic link. The shared data is found as ../shared/data from the copy, so DIR's parent gets a link to
# this repository's ../shared when it has none.
#
#   scripts/snapshot.sh /tmp/base HEAD~1 && scripts/snapshot.sh /tmp/wip
#   cd /tmp/base && PYTHONPATH=$PWD/src /path/to/repo/.venv/bin/python bench/alqac_answers.py --out /tmp/base.json
#
# Run a benchmark inside the copy with PYTHONPATH pointing at its src/ (the venv's editable install points at this
# repository; PYTHONPATH comes first); results and docs it writes stay in the copy.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DIR [COMMIT]" >&2
  exit 2
fi
dir=$(realpath -m "$1")
commit=${2:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
case "$dir/" in "$repo"/*) echo "snapshot.sh: DIR must lie outside the repository" >&2; exit 2 ;; esac
rm -rf "$dir"
mkdir -p "$dir"
cd "$repo"
if [ -n "$commit" ]; then
  git archive "$commit" | tar -x -C "$dir"
else
  git ls-files -z --cached --others --exclude-standard | tar --null -cf - -T - | tar -x -C "$dir"
fi
for f in src/citewise/judge/weights/pair-* src/citewise/samples/embeddings-*.npz; do
  [ -e "$f" ] && cp "$f" "$dir/$f"
done
for d in .bench-cache .judge-runs; do
  [ -e "$d" ] && ln -s "$repo/$d" "$dir/$d"
done
parent=$(dirname "$dir")
if [ -d "$repo/../shared" ] && [ ! -e "$parent/shared" ]; then
  ln -s "$(realpath "$repo/../shared")" "$parent/shared"
fi
echo "$dir: ${commit:-working tree} of $repo"
