package mcptools_test

import (
	"context"
	"fmt"
	"log"

	"github.com/opsgen/opsgen/generator/mcptools"
)

func ExampleLoadData() {
	listing := `{"tools": [{
		"name": "get_weather",
		"description": "Current weather for a city.",
		"inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
		"outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
		"annotations": {"readOnlyHint": true}
	}]}`
	svc, _, err := mcptools.LoadData(context.Background(), []byte(listing), "weather.json", mcptools.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, op := range svc.Operations {
		fmt.Printf("%s: tool %q, input %s, output %s, read-only %v\n",
			op.GoName, op.ID, op.Tool.InputType.Name, op.Tool.OutputType.Name, *op.Tool.ReadOnly)
	}
	for _, t := range svc.Types {
		for _, f := range t.Fields {
			fmt.Printf("%s.%s (%q, required %v)\n", t.Name, f.Name, f.JSONName, f.Required)
		}
	}
	// Output:
	// GetWeather: tool "get_weather", input GetWeatherInput, output GetWeatherOutput, read-only true
	// GetWeatherInput.City ("city", required true)
	// GetWeatherOutput.Celsius ("celsius", required false)
}
