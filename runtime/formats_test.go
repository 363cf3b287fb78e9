package runtime

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDate(t *testing.T) {
	var v struct {
		D Date `json:"d"`
	}
	if err := json.Unmarshal([]byte(`{"d":"2024-02-29"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.D != (Date{2024, time.February, 29}) || v.D.In(time.UTC).Weekday() != time.Thursday {
		t.Fatalf("got %+v", v.D)
	}
	if b, _ := json.Marshal(v); string(b) != `{"d":"2024-02-29"}` {
		t.Fatalf("marshal %s", b)
	}
	for _, bad := range []string{`"2024-02-30"`, `"24-1-1"`, `"2024-01-01T00:00:00Z"`, `7`} {
		if err := json.Unmarshal([]byte(`{"d":`+bad+`}`), &v); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
	// Drift: a value that is not a date is dropped with a warning, the rest kept.
	var w struct {
		D Date   `json:"d"`
		N string `json:"n"`
	}
	warnings, err := decodeFit("op", []byte(`{"d":"soon","n":"kept"}`), &w)
	if err != nil || w.N != "kept" || !w.D.IsZero() || len(warnings) != 1 || warnings[0].Pointer != "/d" {
		t.Fatalf("drift: %+v %v %v", w, warnings, err)
	}
}

func TestDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"PT1H30M":   90 * time.Minute,
		"P2DT3S":    48*time.Hour + 3*time.Second,
		"P1W":       7 * 24 * time.Hour,
		"PT0.5S":    500 * time.Millisecond,
		"-PT1M":     -time.Minute,
		"PT1,5S":    1500 * time.Millisecond,
		"P0D":       0,
		"PT36H":     36 * time.Hour,
		"PT1H0M10S": time.Hour + 10*time.Second,
	} {
		got, err := ParseDuration(in)
		if err != nil || time.Duration(got) != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, time.Duration(got), err, want)
		}
		back, err := ParseDuration(got.String())
		if err != nil || back != got {
			t.Errorf("round trip of %q via %q: %v %v", in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "P", "PT", "1H", "P1Y", "P1M", "PT1D", "P1H", "PTT1S", "PxS"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", bad)
		}
	}
	if s := Duration(26*time.Hour + 500*time.Millisecond).String(); s != "PT26H0.5S" {
		t.Errorf("String = %s", s)
	}
	b, _ := json.Marshal(struct{ D Duration }{Duration(time.Minute)})
	if string(b) != `{"D":"PT1M"}` {
		t.Errorf("marshal %s", b)
	}
}
