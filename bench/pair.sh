#!/usr/bin/env bash
# bench/pair.sh: paired whole-scan comparison of two or more commands.
#
#   bench/pair.sh ROUNDS 'base|/tmp/old scan --format ndjson F' 'new|/tmp/new scan --format ndjson F' ...
#
# Each round runs every command once, the order rotating from round to
# round, under /usr/bin/time (output discarded). It prints each command's
# median wall and CPU seconds (user + sys), sys seconds, peak RSS and minor
# page faults, then, for each command after the first, the median of its
# per-round CPU and wall differences against the first and in how many
# rounds it was lower.
#
# Why paired: this kind of machine runs in regimes (the same binary took
# 2.3 s and 3.6 s within minutes), and medians of separate sets move by
# more than the changes measured. A difference within a round is what is
# left when the regime is the same for both.
#
# Copy binaries before comparing them (cp old /tmp/a; cp new /tmp/b): a
# file just written by `go build` is sometimes cached as large folios, which
# maps more of it at start and changed a scan's CPU by 5-6% on its own
# (docs/performance.md, "Measurements behind specific choices").
set -euo pipefail

if [[ $# -lt 3 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 ROUNDS 'LABEL|COMMAND' 'LABEL|COMMAND'..." >&2
	exit 2
fi
[[ -x /usr/bin/time ]] || { echo "pair.sh: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "pair.sh: python3 is needed for the summary" >&2; exit 1; }
rounds=$1
shift
labels=()
cmds=()
for a in "$@"; do
	[[ $a == *"|"* ]] || { echo "pair.sh: '$a' is not LABEL|COMMAND" >&2; exit 2; }
	labels+=("${a%%|*}")
	cmds+=("${a#*|}")
done
n=${#cmds[@]}
work=$(mktemp -d "${TMPDIR:-/tmp}/runaway-pair.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/rows"
for ((i = 1; i <= rounds; i++)); do
	for ((j = 0; j < n; j++)); do
		k=$(((i + j) % n))
		if ! /usr/bin/time -f '%e %U %S %M %R' -o "$work/time" bash -c "${cmds[$k]}" >/dev/null 2>"$work/err"; then
			cat "$work/err" >&2
			echo "pair.sh: ${labels[$k]} failed in round $i" >&2
			exit 1
		fi
		read -r wall user sys rss faults <"$work/time"
		echo "$i ${labels[$k]} $wall $user $sys $rss $faults" >>"$work/rows"
	done
done
python3 - "$work/rows" "${labels[@]}" <<'PY'
import statistics as st
import sys

rows = [line.split() for line in open(sys.argv[1])]
labels = sys.argv[2:]
by = {l: {int(r[0]): r for r in rows if r[1] == l} for l in labels}
cpu = lambda r: float(r[3]) + float(r[4])
for l in labels:
    rs = list(by[l].values())
    print(f"{l:12s} wall {st.median(float(r[2]) for r in rs):.3f} s  cpu {st.median(cpu(r) for r in rs):.3f} s"
          f"  sys {st.median(float(r[4]) for r in rs):.3f} s  rss {st.median(int(r[5]) for r in rs) / 1024:.1f} MiB"
          f"  faults {st.median(int(r[6]) for r in rs):.0f}")
first = by[labels[0]]
for l in labels[1:]:
    other = by[l]
    ks = sorted(set(first) & set(other))
    dc = [cpu(other[k]) / cpu(first[k]) - 1 for k in ks]
    dw = [float(other[k][2]) / float(first[k][2]) - 1 for k in ks]
    print(f"{l} vs {labels[0]}: cpu {100 * st.median(dc):+.1f}% (lower in {sum(d < 0 for d in dc)} of {len(dc)}),"
          f" wall {100 * st.median(dw):+.1f}% (lower in {sum(d < 0 for d in dw)} of {len(dw)})")
PY
