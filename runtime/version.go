package runtime

// EnforceVersion ties generated code to the runtime versions that can run
// it. Generated code declares
//
//	const _ = runtime.EnforceVersion(N - runtime.MinVersion)
//	const _ = runtime.EnforceVersion(runtime.MaxVersion - N)
//
// where N is the generated-code contract version it was made for; when N is
// outside [MinVersion, MaxVersion] a constant overflows and the package does
// not compile, pointing at the mismatch instead of failing at run time.
type EnforceVersion uint

// The generated-code contract versions this runtime supports.
const (
	MinVersion = 1
	MaxVersion = 1
)
