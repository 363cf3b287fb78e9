// Command awsxmlcheck checks the root elements that opsgen gives the XML
// request bodies of APIs.guru's AWS REST-XML descriptions against the AWS
// SDK's service models, which the descriptions were converted from
// (generator/openapi/aws.go states the rules). It loads each description
// as opsgen does and compares every XML body's framing with the model: a
// payload member's element as the document (nodeType none), or the input
// shape's element (its locationName) around the members; and the
// namespace. It exits 1 on a framing that differs.
//
//	awsxmlcheck SDK_APIS_DIR DESCRIPTION.json...
//
// SDK_APIS_DIR is the apis directory of npm's aws-sdk (version 2), whose
// <service>-<version>.min.json the description's info x-origin names
// (scripts/aws-xml-check.sh installs it).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// model is the part of an SDK service model read here.
type model struct {
	Metadata struct {
		Protocol string `json:"protocol"`
	} `json:"metadata"`
	Operations map[string]struct {
		Input *shape `json:"input"`
	} `json:"operations"`
	Shapes map[string]*shape `json:"shapes"`
}

// shape is a model shape, or a reference to one (Shape).
type shape struct {
	Shape        string                `json:"shape"`
	Type         string                `json:"type"`
	Location     string                `json:"location"`
	LocationName string                `json:"locationName"`
	XMLNamespace *struct{ URI string } `json:"xmlNamespace"`
	Payload      string                `json:"payload"`
	Members      map[string]*shape     `json:"members"`
}

func (m *model) resolve(s *shape) *shape {
	if s != nil && s.Shape != "" {
		return m.Shapes[s.Shape]
	}
	return s
}

var versionSuffix = regexp.MustCompile(`\d{4}_\d{2}_\d{2}$`)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: awsxmlcheck SDK_APIS_DIR DESCRIPTION.json...")
		os.Exit(2)
	}
	failed := false
	for _, path := range os.Args[2:] {
		ok, err := check(os.Args[1], path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(2)
		}
		failed = failed || !ok
	}
	if failed {
		os.Exit(1)
	}
}

// check compares the XML bodies of the description at path with its model.
func check(apis, path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var head struct {
		Info struct {
			Origin []struct{ URL string } `json:"x-origin"`
		} `json:"info"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return false, err
	}
	if len(head.Info.Origin) == 0 {
		return false, fmt.Errorf("no info x-origin")
	}
	name := strings.TrimSuffix(filepath.Base(head.Info.Origin[0].URL), ".normal.json") + ".min.json"
	mdata, err := os.ReadFile(filepath.Join(apis, name))
	if err != nil {
		return false, err
	}
	var m model
	if err := json.Unmarshal(mdata, &m); err != nil {
		return false, fmt.Errorf("%s: %w", name, err)
	}
	svc, _, err := openapi.Load(context.Background(), path, openapi.Options{})
	if err != nil {
		return false, err
	}
	var bodies, payloads, noNamespace, skipped int
	ok := true
	for _, op := range svc.Operations {
		if op.Body == nil || op.Body.Kind != ir.BodyXML {
			continue
		}
		mop, found := m.Operations[versionSuffix.ReplaceAllString(op.ID, "")]
		input := m.resolve(mop.Input)
		if !found || input == nil {
			continue
		}
		if !xmlBody(m, input) {
			// Headers and URI only, or a blob payload (S3's PutObject):
			// the model sends no XML, whatever the description says.
			skipped++
			continue
		}
		bodies++
		x, _ := op.Body.Schema.Get("xml").(map[string]any)
		gotNS, _ := x["namespace"].(string)
		var want, got, wantNS string
		if pm := m.resolve(input.Members[input.Payload]); input.Payload != "" && pm != nil && pm.Type == "structure" {
			payloads++
			want, got = "payload "+input.Payload, fmt.Sprint(x["nodeType"])
			if got == "none" {
				got = want
			}
			if ns := input.Members[input.Payload].XMLNamespace; ns != nil {
				wantNS = ns.URI
			}
		} else {
			want, got = "<"+input.LocationName+">", fmt.Sprintf("<%v>", x["name"])
			if input.XMLNamespace != nil {
				wantNS = input.XMLNamespace.URI
			}
		}
		if got != want {
			ok = false
			fmt.Printf("%s %s: %s, the model says %s\n", filepath.Base(path), op.ID, got, want)
		}
		switch {
		case gotNS == "" && wantNS != "":
			noNamespace++
		case gotNS != wantNS:
			ok = false
			fmt.Printf("%s %s: namespace %q, the model says %q\n", filepath.Base(path), op.ID, gotNS, wantNS)
		}
	}
	fmt.Printf("%s (%s, %s): %d XML bodies, %d of them a payload's, %d without the model's namespace, which the description does not give; %d the model sends no XML for\n",
		filepath.Base(path), name, m.Metadata.Protocol, bodies, payloads, noNamespace, skipped)
	return ok, nil
}

// xmlBody reports whether the model sends input as XML: a structure
// payload, or members outside the URI, query and headers.
func xmlBody(m model, input *shape) bool {
	if input.Payload != "" {
		pm := m.resolve(input.Members[input.Payload])
		return pm != nil && pm.Type == "structure"
	}
	for _, mem := range input.Members {
		if mem.Location == "" {
			return true
		}
	}
	return false
}
