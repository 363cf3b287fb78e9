// Command handwritten constructs a net/http client with an encoding/json
// decode in its call path and exits: the baseline of BenchmarkStartup.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

type pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// list is the call a hand-written client would make; linked, not run.
func list(hc *http.Client, base string) ([]pet, error) {
	resp, err := hc.Get(base + "/pets")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []pet
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

func main() {
	hc := &http.Client{Timeout: 30 * time.Second}
	if len(os.Args) > 1 {
		fmt.Println(list(hc, os.Args[1]))
	}
}
