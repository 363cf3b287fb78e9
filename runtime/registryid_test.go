package runtime

import "testing"

func TestValidOperationID(t *testing.T) {
	for id, want := range map[string]bool{
		"a.b": true, "pets.list_all-2": true, "A.b.C": true,
		"": false, "a": false, "a.": false, ".a": false, "a..b": false, "a.b c": false, "a/b.c": false, "é.b": false,
	} {
		if got := validOperationID(id); got != want {
			t.Errorf("validOperationID(%q) = %v, want %v", id, got, want)
		}
	}
}
