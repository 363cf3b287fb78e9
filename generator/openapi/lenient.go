package openapi

import (
	"context"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

func dropAnnotations(data []byte, source string, swagger bool, err error) ([]byte, diag.List, bool) {
	return nil, nil, false
}

func retryLenient(ctx context.Context, patched []byte, source string, opts Options, f *files, ws diag.List, err error) (*ir.Service, diag.List, error) {
	return nil, nil, err
}
