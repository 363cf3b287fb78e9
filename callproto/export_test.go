package callproto

import "time"

// SetClockSkew makes m stamp deadlines as a spoke whose wall clock is off
// by d would (positive: ahead). Set it before the first call.
func SetClockSkew(m *PendingRequestMap, d time.Duration) { m.skew = d }
