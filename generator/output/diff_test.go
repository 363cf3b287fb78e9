package output

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n"
	want := `--- old
+++ new
@@ -1,10 +1,11 @@
 a
 b
 c
-d
+D
 e
 f
 g
 h
 i
 j
+k
`
	if got := Unified("old", "new", []byte(a), []byte(b), 100); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Unified("old", "new", []byte(a), []byte(a), 100); got != "" {
		t.Errorf("equal inputs: %q", got)
	}
}

func TestUnifiedSeparateHunks(t *testing.T) {
	var a, b []string
	for i := range 30 {
		a = append(a, string(rune('A'+i%26)))
		b = append(b, string(rune('A'+i%26)))
	}
	b[2], b[25] = "x", "y"
	got := Unified("a", "b", []byte(strings.Join(a, "\n")+"\n"), []byte(strings.Join(b, "\n")+"\n"), 100)
	if n := strings.Count(got, "@@ -"); n != 2 {
		t.Errorf("%d hunks, want 2:\n%s", n, got)
	}
	if !strings.Contains(got, "@@ -1,6 +1,6 @@\n A\n B\n-C\n+x\n D\n E\n F\n") {
		t.Errorf("first hunk wrong:\n%s", got)
	}
	if !strings.Contains(got, "@@ -23,7 +23,7 @@\n W\n X\n Y\n-Z\n+y\n A\n B\n C\n") {
		t.Errorf("second hunk wrong:\n%s", got)
	}
}

func TestUnifiedNoNewlineAndEmpty(t *testing.T) {
	got := Unified("a", "b", []byte("x\ny\n"), []byte("x\ny"), 100)
	want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	got = Unified("/dev/null", "b", nil, []byte("x\n"), 100)
	if want := "--- /dev/null\n+++ b\n@@ -0,0 +1,1 @@\n+x\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnifiedTruncated(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		b.WriteString(strings.Repeat("z", i%7+1) + "\n")
	}
	got := Unified("a", "b", nil, []byte(b.String()), 200)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2+200+1 {
		t.Fatalf("%d lines, want 203", len(lines))
	}
	if last := lines[len(lines)-1]; last != "... diff truncated: 301 more lines" {
		t.Errorf("last line %q", last)
	}
}

// TestDiffMinimal checks on random inputs that the script turns a into b
// and is as short as the longest common subsequence allows.
func TestDiffMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() []string {
		s := make([]string, r.IntN(40))
		for i := range s {
			s[i] = string(rune('a' + r.IntN(4)))
		}
		return s
	}
	for range 500 {
		a, b := gen(), gen()
		script := diffLines(a, b)
		var gotA, gotB []string
		edits := 0
		for _, e := range script {
			if e.kind != opInsert {
				gotA = append(gotA, e.line)
			}
			if e.kind != opDelete {
				gotB = append(gotB, e.line)
			}
			if e.kind != opEqual {
				edits++
			}
		}
		if strings.Join(gotA, ",") != strings.Join(a, ",") || strings.Join(gotB, ",") != strings.Join(b, ",") {
			t.Fatalf("script does not rebuild a=%v b=%v", a, b)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); edits != want {
			t.Fatalf("a=%v b=%v: %d edits, want %d", a, b, edits, want)
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestDiffTooManyEdits(t *testing.T) {
	var a, b []string
	for i := range maxEdits + 10 {
		a = append(a, "a"+string(rune(i)))
		b = append(b, "b"+string(rune(i)))
	}
	script := diffLines(a, b)
	if len(script) != len(a)+len(b) || script[0].kind != opDelete || script[len(a)].kind != opInsert {
		t.Errorf("fallback script has %d edits", len(script))
	}
}
