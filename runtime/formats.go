package runtime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Date is a calendar date, the Go type of JSON Schema's format "date"
// (RFC 3339 full-date, YYYY-MM-DD). It is a text value: JSON strings,
// query and path parameters alike. Its zero value is the zero date
// (0000-00-00), sent as such; use it with omitzero, a pointer or
// Nullable to leave it out.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses a date in the form YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("opsgen: date %q: want YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// String returns the date as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// IsZero reports whether d is the zero date.
func (d Date) IsZero() bool { return d == Date{} }

// In returns the time at the start of the date in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// MarshalText implements encoding.TextMarshaler.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Duration is the Go type of JSON Schema's format "duration": an ISO 8601
// duration (RFC 3339 appendix A) such as "PT1H30M" or "P2DT3S", held as a
// time.Duration. Days are 24 hours and weeks 7 days; years and months,
// whose length depends on the calendar, are not accepted (such a value in
// a response is drift: dropped with a warning). It is written as hours,
// minutes and seconds ("PT26H0.5S"), "PT0S" for zero.
type Duration time.Duration

// ParseDuration parses an ISO 8601 duration without years or months.
func ParseDuration(s string) (Duration, error) {
	bad := func() (Duration, error) {
		return 0, fmt.Errorf("opsgen: duration %q: want an ISO 8601 duration such as PT1H30M (no years or months)", s)
	}
	rest, neg := strings.CutPrefix(s, "-")
	if !neg {
		rest = strings.TrimPrefix(rest, "+")
	}
	rest, ok := strings.CutPrefix(rest, "P")
	if !ok || rest == "" {
		return bad()
	}
	var total float64
	inTime, any := false, false
	for rest != "" {
		if rest[0] == 'T' {
			if inTime {
				return bad()
			}
			inTime, rest = true, rest[1:]
			if rest == "" {
				return bad()
			}
			continue
		}
		i := strings.IndexFunc(rest, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != ',' })
		if i <= 0 {
			return bad()
		}
		n, err := strconv.ParseFloat(strings.Replace(rest[:i], ",", ".", 1), 64)
		if err != nil {
			return bad()
		}
		unit := rest[i]
		rest = rest[i+1:]
		var d float64
		switch {
		case !inTime && unit == 'W':
			d = float64(7 * 24 * time.Hour)
		case !inTime && unit == 'D':
			d = float64(24 * time.Hour)
		case inTime && unit == 'H':
			d = float64(time.Hour)
		case inTime && unit == 'M':
			d = float64(time.Minute)
		case inTime && unit == 'S':
			d = float64(time.Second)
		default:
			return bad()
		}
		total += n * d
		any = true
	}
	if !any || total > float64(1<<63-1) {
		return bad()
	}
	if neg {
		total = -total
	}
	return Duration(total), nil
}

// String returns the duration in ISO 8601 form (PT1H30M).
func (d Duration) String() string {
	if d == 0 {
		return "PT0S"
	}
	var b strings.Builder
	v := time.Duration(d)
	if v < 0 {
		b.WriteByte('-')
		v = -v
	}
	b.WriteString("PT")
	if h := v / time.Hour; h > 0 {
		b.WriteString(strconv.FormatInt(int64(h), 10) + "H")
		v -= h * time.Hour
	}
	if m := v / time.Minute; m > 0 {
		b.WriteString(strconv.FormatInt(int64(m), 10) + "M")
		v -= m * time.Minute
	}
	if v > 0 {
		b.WriteString(strconv.FormatFloat(v.Seconds(), 'f', -1, 64) + "S")
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
