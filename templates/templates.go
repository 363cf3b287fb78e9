// Package templates holds the text templates opsgen writes besides Go
// code: the starter files of `opsgen init`.
//
// opsgen.yaml.tmpl and generate.go.tmpl are executed with an InitData. The
// config starts with a yaml-language-server modeline naming
// opsgen.schema.json, which opsgen init writes next to it, so that editors
// check and complete the config.
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// InitData fills the templates of `opsgen init`.
type InitData struct {
	// Package is the Go package name of the directory.
	Package string
	// OpenAPI or MCP is the source document's path, relative to the directory.
	OpenAPI string
	MCP     string
}

var tmpl = template.Must(template.New("").Funcs(template.FuncMap{
	// quote writes a string as a JSON string, which YAML reads as is.
	"quote": func(s string) (string, error) {
		b, err := json.Marshal(s)
		return string(b), err
	},
}).ParseFS(files, "*.tmpl"))

// Execute runs the template name ("opsgen.yaml.tmpl", "generate.go.tmpl").
func Execute(name string, data InitData) ([]byte, error) {
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
