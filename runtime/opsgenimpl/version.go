package opsgenimpl

// EnforceVersion ties generated code to the runtime versions that can run
// it. Generated code declares
//
//	const _ = opsgenimpl.EnforceVersion(N - opsgenimpl.MinVersion)
//	const _ = opsgenimpl.EnforceVersion(opsgenimpl.MaxVersion - N)
//
// where N is the generated-code contract version it was made for; when N is
// outside [MinVersion, MaxVersion] a constant overflows and the package does
// not compile, pointing at the mismatch instead of failing at run time.
type EnforceVersion uint

// The generated-code contract versions this runtime supports. Version 2
// is the runtime split by audience: generated code calls this package for
// what only it uses (version 1 called package runtime for everything).
// Version 3 declares its schemas as static data, one Def per named type
// (version 2 declared one SchemaSet per package, which this runtime still
// supports).
const (
	MinVersion = 2
	MaxVersion = 3
)
