#!/usr/bin/env bash
# Rebuild the real-run corpus tree from public GitHub repositories.
#
#   corpus/real/fetch.sh TARGET [MIRRORS]
#
# For every row of manifest.tsv (next to this script) the file or directory
# `repo_path` is read at `commit` of `repository` and written to
# TARGET/`corpus_path`; its sha256 is then checked against the manifest and the
# script stops with an error on the first mismatch.
#
# MIRRORS, if given, is a directory of bare git repositories named
# <owner>+<name> (optionally with a `repo` sub-directory, or a `.git` suffix).
# Repositories not found there are cloned from github.com with
# `git clone --filter=blob:none --no-checkout` into a temporary directory that
# is removed at exit (set RUNAWAY_FETCH_CACHE=DIR to keep the clones in DIR).
# RUNAWAY_GIT_BASE overrides the clone URL prefix (default https://github.com).
#
# Needs network access unless every repository has a mirror; CI does not run it.
set -euo pipefail

die() {
	echo "fetch.sh: $*" >&2
	exit 1
}

[[ $# -ge 1 && $# -le 2 ]] || die "usage: $0 TARGET [MIRRORS]"
target=$1
mirrors=${2:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
manifest=$here/manifest.tsv
base=${RUNAWAY_GIT_BASE:-https://github.com}
[[ -f $manifest ]] || die "no manifest at $manifest"
[[ -z $mirrors || -d $mirrors ]] || die "mirror directory $mirrors does not exist"
command -v git >/dev/null || die "git is required"
command -v sha256sum >/dev/null || die "sha256sum is required"

mkdir -p "$target"
target=$(cd "$target" && pwd)

if [[ -n ${RUNAWAY_FETCH_CACHE:-} ]]; then
	cache=$RUNAWAY_FETCH_CACHE
	mkdir -p "$cache"
else
	cache=$(mktemp -d)
	trap 'rm -rf "$cache"' EXIT
fi

# Read the manifest (skip the header) into parallel arrays.
cpaths=() repos=() commits=() rpaths=() shas=()
while IFS=$'\t' read -r cpath repo commit rpath _license sha; do
	[[ $cpath == corpus_path ]] && continue
	[[ -n $cpath ]] || continue
	case /$cpath/ in */../* | */./* | //*) die "unsafe corpus path: $cpath" ;; esac
	[[ $repo =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ ]] || die "bad repository: $repo"
	[[ $commit =~ ^[0-9a-f]{40}$ ]] || die "bad commit for $cpath: $commit"
	[[ $sha =~ ^[0-9a-f]{64}$ ]] || die "bad sha256 for $cpath: $sha"
	cpaths+=("$cpath") repos+=("$repo") commits+=("$commit") rpaths+=("$rpath") shas+=("$sha")
done <"$manifest"
n=${#cpaths[@]}
[[ $n -gt 0 ]] || die "manifest is empty"

# gitdir_for REPO: set $gd to the git directory to read REPO from (mirror or
# fresh clone). Not called in a subshell, so that the tables below persist.
declare -A gitdirs=() cloned=()
gitdir_for() {
	local repo=$1 name=${1/\//+} cand
	if [[ -n ${gitdirs[$repo]:-} ]]; then
		gd=${gitdirs[$repo]}
		return
	fi
	if [[ -n $mirrors ]]; then
		for cand in "$mirrors/$name/repo" "$mirrors/$name" "$mirrors/$name.git" "$mirrors/$repo" "$mirrors/$repo.git"; do
			if [[ -d $cand ]] && git --git-dir="$cand" rev-parse --git-dir >/dev/null 2>&1; then
				gitdirs[$repo]=$cand
				gd=$cand
				return
			fi
		done
	fi
	cand=$cache/$name.git
	if [[ ! -d $cand ]]; then
		echo "fetch.sh: cloning $base/$repo" >&2
		git clone --quiet --bare --filter=blob:none --no-checkout "$base/$repo.git" "$cand" >&2 ||
			die "could not clone $base/$repo"
	fi
	gitdirs[$repo]=$cand
	cloned[$repo]=1
	gd=$cand
}

# Make sure every commit is present (some live only on pull-request refs or
# deleted branches, which a plain clone does not bring), and for clones fetch
# all needed blobs in one request per repository instead of one per file.
declare -A done_repo=()
for ((i = 0; i < n; i++)); do
	repo=${repos[i]}
	[[ -n ${done_repo[$repo]:-} ]] && continue
	done_repo[$repo]=1
	gitdir_for "$repo"
	wanted=()
	for ((j = 0; j < n; j++)); do
		[[ ${repos[j]} == "$repo" ]] && wanted+=("${commits[j]}")
	done
	mapfile -t wanted < <(printf '%s\n' "${wanted[@]}" | sort -u)
	for c in "${wanted[@]}"; do
		git --git-dir="$gd" cat-file -e "$c^{commit}" 2>/dev/null && continue
		[[ -n ${cloned[$repo]:-} ]] || die "commit $c of $repo is not in the mirror $gd"
		echo "fetch.sh: fetching commit $c of $repo" >&2
		git --git-dir="$gd" fetch --quiet --filter=blob:none origin "$c" >&2 ||
			git --git-dir="$gd" fetch --quiet --filter=blob:none origin '+refs/pull/*/head:refs/remotes/pull/*' >&2 ||
			true
		git --git-dir="$gd" cat-file -e "$c^{commit}" 2>/dev/null || die "commit $c of $repo could not be fetched"
	done
	if [[ -n ${cloned[$repo]:-} ]]; then
		oids=$(for ((j = 0; j < n; j++)); do
			[[ ${repos[j]} == "$repo" ]] || continue
			git --git-dir="$gd" ls-tree -r "${commits[j]}" -- "${rpaths[j]}" | awk '$2 == "blob" { print $3 }'
		done | sort -u)
		if [[ -n $oids ]]; then
			echo "fetch.sh: fetching $(wc -l <<<"$oids") files of $repo" >&2
			git --git-dir="$gd" -c fetch.negotiationAlgorithm=noop fetch --quiet origin \
				--no-tags --no-write-fetch-head --recurse-submodules=no --filter=blob:none --stdin <<<"$oids" >&2 ||
				echo "fetch.sh: batch fetch failed for $repo; files will be fetched one by one" >&2
		fi
	fi
done

# dir_sha DIR: sha256 of the concatenated "<sha256 hex>\n" lines of DIR's files in numeric name order.
dir_sha() {
	local d=$1 f
	(cd "$d" && ls -1 | sort -n | while IFS= read -r f; do
		sha256sum <"$f" | cut -d' ' -f1
	done) | sha256sum | cut -d' ' -f1
}

bad=0
for ((i = 0; i < n; i++)); do
	cpath=${cpaths[i]} repo=${repos[i]} commit=${commits[i]} rpath=${rpaths[i]} want=${shas[i]}
	gitdir_for "$repo"
	dest=$target/$cpath
	kind=$(git --git-dir="$gd" cat-file -t "$commit:$rpath" 2>/dev/null) ||
		die "$repo@$commit has no $rpath (for $cpath)"
	case $kind in
	blob)
		mkdir -p "$(dirname "$dest")"
		git --git-dir="$gd" cat-file blob "$commit:$rpath" >"$dest.part"
		mv "$dest.part" "$dest"
		got=$(sha256sum <"$dest" | cut -d' ' -f1)
		;;
	tree)
		rm -rf "$dest"
		mkdir -p "$dest"
		while IFS=$'\t' read -r meta name; do
			read -r _mode type oid <<<"$meta"
			[[ $type == blob ]] || die "$repo@$commit:$rpath/$name is a $type, expected files only"
			git --git-dir="$gd" cat-file blob "$oid" >"$dest/$name"
		done < <(git --git-dir="$gd" ls-tree "$commit:$rpath")
		got=$(dir_sha "$dest")
		;;
	*) die "$repo@$commit:$rpath is a $kind" ;;
	esac
	if [[ $got != "$want" ]]; then
		echo "fetch.sh: SHA256 MISMATCH for $cpath: manifest $want, fetched $got" >&2
		bad=$((bad + 1))
	fi
done

[[ $bad -eq 0 ]] || die "$bad of $n paths did not match the manifest"
echo "fetch.sh: $n paths written under $target, all sha256 match the manifest" >&2
