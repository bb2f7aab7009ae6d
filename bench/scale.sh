#!/usr/bin/env bash
# Is a scan's cost linear in its input, and does its memory stay under
# --max-memory? Times `runaway scan --max-memory $MAXMEM` over 100 MB, 1 GB,
# 10 GB and 20 GB of generated logs in files of 500 MB (the 100 MB point is
# one file), gzip and zstd alternating, and prints wall time, throughput
# (uncompressed bytes) and peak RSS; checks that no spill file is left.
#
#   bench/scale.sh                 # all four sizes
#   SIZES="100MB 1GB" bench/scale.sh
#
# Environment: BENCH_DIR [/tmp/runaway-bench/scale], MAXMEM [128MiB],
# SIZES ["100MB 1GB 10GB 20GB"]. Needs gzip and zstd; the corpus (about
# 5 GB compressed for 20 GB) is kept in BENCH_DIR for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${BENCH_DIR:-/tmp/runaway-bench/scale}
MAXMEM=${MAXMEM:-128MiB}
SIZES=${SIZES:-"100MB 1GB 10GB 20GB"}
mkdir -p "$BENCH_DIR/tmp"
bin=$(mktemp -d)/runaway
go build -o "$bin" ./cmd/runaway

# part i: 500 MB, seed 1000+i, gz for even i and zst for odd; the raw file is removed.
part() {
	local i=$1 ext=gz
	((i % 2)) && ext=zst
	local out="$BENCH_DIR/part-$(printf %03d "$i").jsonl.$ext"
	if [[ ! -s $out ]]; then
		"$bin" gen --size 500MB --seed $((1000 + i)) --interleave 64 --out "$BENCH_DIR/raw.jsonl"
		if [[ $ext == gz ]]; then gzip -1 -c "$BENCH_DIR/raw.jsonl" >"$out.tmp"; else zstd -q -1 -T2 "$BENCH_DIR/raw.jsonl" -o "$out.tmp"; fi
		mv "$out.tmp" "$out"
		rm -f "$BENCH_DIR/raw.jsonl"
	fi
	echo "$out"
}
small="$BENCH_DIR/small-100MB.jsonl.gz"
if [[ ! -s $small ]]; then
	"$bin" gen --size 100MB --seed 999 --interleave 64 --out "$BENCH_DIR/raw.jsonl"
	gzip -1 -c "$BENCH_DIR/raw.jsonl" >"$small.tmp" && mv "$small.tmp" "$small"
	rm -f "$BENCH_DIR/raw.jsonl"
fi

printf '%-6s %5s %14s %8s %8s %8s %12s\n' size files "bytes (raw)" "wall s" "CPU s" "MB/s" "peak RSS MiB"
for size in $SIZES; do
	case $size in
	100MB) files=("$small") ;;
	*GB) n=$((${size%GB} * 2)); files=(); for ((i = 0; i < n; i++)); do files+=("$(part "$i")"); done ;;
	*) echo "unknown size $size" >&2; exit 2 ;;
	esac
	if [[ ! -s $BENCH_DIR/raw-$size.txt ]]; then # uncompressed size, counted once
		for f in "${files[@]}"; do case $f in *.gz) gzip -dc "$f" ;; *.zst) zstd -dcq "$f" ;; esac; done | wc -c >"$BENCH_DIR/raw-$size.txt"
	fi
	raw=$(<"$BENCH_DIR/raw-$size.txt")
	stats=$( { TMPDIR="$BENCH_DIR/tmp" GOMAXPROCS=2 /usr/bin/time -f '%e %M %U %S' "$bin" scan --workers 2 --quiet \
		--max-memory "$MAXMEM" --format ndjson --out /dev/null "${files[@]}" 2>&1 1>/dev/null; } | tail -1)
	read -r wall rss user sys <<<"$stats"
	left=$(find "$BENCH_DIR/tmp" -mindepth 1 | wc -l)
	printf '%-6s %5d %14d %8.1f %8.1f %8.1f %12.1f%s\n' "$size" "${#files[@]}" "$raw" "$wall" "$(echo "$user + $sys" | bc)" \
		"$(echo "$raw / 1000000 / $wall" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$([[ $left -gt 0 ]] && echo "  ($left spill files LEFT)")"
done
