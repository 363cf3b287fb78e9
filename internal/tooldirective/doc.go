// Package tooldirective holds a test, and no code, of opsgen used the way a
// consumer module uses it: as a tool of the go command (a tool directive in
// go.mod), run by go generate and go tool opsgen check. See the test's doc.
package tooldirective
