package diag

import "testing"

func TestWarnKind(t *testing.T) {
	var l List
	l.Warn(LeftOut, Pos{File: "a.yaml", Line: 3, Col: 5, Pointer: "/x"}, "header parameter %q is ignored", "Accept")
	if l[0].Kind != LeftOut || l[0].Severity != Warning || l[0].String() != `a.yaml:3:5 (#/x): warning: header parameter "Accept" is ignored` {
		t.Errorf("Warn gave %+v (%s)", l[0], l[0])
	}
	for k, want := range map[Kind]string{Unclassified: "unclassified", RawJSON: "raw JSON", UntypedRef: "untyped $ref", Renamed: "renamed", LeftOut: "left out", Other: "other", Kind(9): "Kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}
