package schema

import (
	"strings"
	"testing"
)

// Long listings of two directories share every column but the names:
// they are two answers. The same directory listed again, or with one
// file's size and date changed, is one.
func TestLongListingsCompareByTheirNames(t *testing.T) {
	src := strings.Join([]string{
		"total 148",
		"drwxrwxr-x 2 ubuntu ubuntu  4096 Nov 15 05:58 .",
		"drwxrwxr-x 3 ubuntu ubuntu  4096 Nov 15 05:58 ..",
		"-rwxrwxr-x 1 ubuntu ubuntu  2611 Nov 15 05:58 __init__.py",
		"-rw-rw-r-- 1 ubuntu ubuntu  5531 Nov 15 05:58 allreduce.py",
		"-rw-rw-r-- 1 ubuntu ubuntu  4530 Nov 15 05:58 attention.py",
		"-rw-rw-r-- 1 ubuntu ubuntu  3997 Nov 15 05:58 cutlass_moe.py",
		"-rw-rw-r-- 1 ubuntu ubuntu  9780 Nov 15 05:58 elementwise.py",
		"-rw-rw-r-- 1 ubuntu ubuntu 11440 Nov 15 05:58 flash_attn.py",
		"-rw-rw-r-- 1 ubuntu ubuntu  7508 Nov 15 05:58 fused_moe.py",
	}, "\n")
	top := strings.Join([]string{
		"total 132",
		"drwxrwxr-x  8 ubuntu ubuntu  4096 Nov 15 05:58 .",
		"drwxrwxr-x 15 ubuntu ubuntu  4096 Nov 15 05:58 ..",
		"-rw-rw-r--  1 ubuntu ubuntu   716 Nov 15 05:58 .clang-format",
		"-rw-rw-r--  1 ubuntu ubuntu 15048 Nov 15 05:58 CMakeLists.txt",
		"-rw-rw-r--  1 ubuntu ubuntu 11346 Nov 15 05:58 LICENSE",
		"-rw-rw-r--  1 ubuntu ubuntu  2940 Nov 15 05:58 Makefile",
		"drwxrwxr-x  2 ubuntu ubuntu  4096 Nov 15 05:58 benchmark",
		"-rwxrwxr-x  1 ubuntu ubuntu  2587 Nov 15 05:58 build.sh",
		"drwxrwxr-x 13 ubuntu ubuntu  4096 Nov 15 05:58 csrc",
		"drwxrwxr-x  3 ubuntu ubuntu  4096 Nov 15 05:58 include",
		"-rw-rw-r--  1 ubuntu ubuntu   853 Nov 15 05:58 pyproject.toml",
		"-rwxrwxr-x  1 ubuntu ubuntu   502 Nov 15 05:58 rename_wheels.sh",
		"drwxrwxr-x  4 ubuntu ubuntu  4096 Nov 15 05:58 tests",
	}, "\n")
	bits := SimilarityBits(0.9)
	if d := SimHashDistance(resultHash(t, src), resultHash(t, top)); d <= bits {
		t.Errorf("listings of two directories are %d bits apart, within the %d of one answer", d, bits)
	}
	again := strings.NewReplacer("5531 Nov 15 05:58", "5610 Nov 16 09:12", "total 148", "total 152").Replace(src)
	if d := SimHashDistance(resultHash(t, src), resultHash(t, again)); d > bits {
		t.Errorf("one directory listed twice, one file grown, is %d bits apart, want <= %d", d, bits)
	}
}

func TestListedName(t *testing.T) {
	for line, want := range map[string]string{
		"-rw-r--r--  1 root root 1234 Nov 14 21:05 a.py":                 "a.py",
		"drwxr-xr-x. 1 raven raven 798 Oct  8 16:01 .bench_scratch":      ".bench_scratch",
		"-rw-r--r--@ 1 me  staff  4.0K 14 Nov  2023 notes.md":            "notes.md",
		"lrwxrwxrwx 1 root root 7 Jan  3 10:00 lib -> usr/lib":           "lib -> usr/lib",
		"-rw-r--r-- 1 root root 10 2024-11-14 21:05 my file.txt":         "my file.txt",
		"-rw-r--r-- 1 root root 10 <ts> +0000 x.go":                      "x.go",
		"  123456 -rw-r--r-- 1 root root 10 Nov 14 21:05 inode.txt":      "inode.txt",
		"crw-rw-rw- 1 root root 1, 3 Nov 14 21:05 null":                  "null",
		"-rw-r--r-- 1 root 1234 Nov 14 21:05 owner-only (ls -o)":         "owner-only (ls -o)",
		"-rwsr-xr-t 1 root root 1234 Dec  1  2020 setuid":                "setuid",
		"-rw-r--r-- user/group 1234 2025-11-15 05:58 tar/entry (tar tv)": "tar/entry (tar tv)",
	} {
		at, ok := listedName([]byte(line))
		if !ok || line[at:] != want {
			t.Errorf("listedName(%q) = %q, %v; want %q", line, line[at:], ok, want)
		}
	}
	for _, line := range []string{
		"total 148",
		"-rw-r--r-- 1 root root 1234 Nov 14 21:05", // no name
		"drwxr-xr-x is a mode, Nov 14 21:05 a date",
		"-rw-r--r-x-x 1 root root 1 Nov 14 21:05 a",
		"modified: Nov 14 21:05 a.py",
	} {
		if _, ok := listedName([]byte(line)); ok {
			t.Errorf("listedName(%q) read a long listing's line", line)
		}
	}
}

func TestDropListingColumnsNeedsAListing(t *testing.T) {
	one := `-rw-r--r-- 1 root root 1234 Nov 14 21:05 a.py\ntotal 4`
	if got := string(dropListingColumns([]byte(one), 0)); got != one {
		t.Errorf("one file's line: got %q, want it kept", got)
	}
	three := `total 12\r\n-rw-r--r-- 1 root root 1 Nov 14 21:05 a.py\r\n` +
		`-rw-r--r-- 1 root root 2 Nov 14 21:05 b.py\r\n-rw-r--r-- 1 root root 3 Nov 14 21:05 c.py\r\nok`
	want := `\na.py\r\nb.py\r\nc.py\r\nok`
	if got := string(dropListingColumns([]byte("kept"+three), 4)); got != "kept"+want {
		t.Errorf("got %q, want %q", got, "kept"+want)
	}
}
