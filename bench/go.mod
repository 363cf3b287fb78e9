module github.com/opsgen/opsgen/bench

go 1.25.0

require (
	github.com/oapi-codegen/runtime v1.8.0
	github.com/opsgen/opsgen v0.0.0
)

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.41.0 // indirect
)

replace github.com/opsgen/opsgen => ..
