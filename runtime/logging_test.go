package runtime

import (
	"bytes"
	"log"
	"log/slog"
	"testing"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// logWarning writes what slog's default logger writes through package log
// (when no handler was installed with slog.SetDefault).
func TestLogWarningAsSlog(t *testing.T) {
	var buf bytes.Buffer
	flags, out := log.Flags(), log.Writer()
	log.SetFlags(0)
	log.SetOutput(&buf)
	defer func() { log.SetFlags(flags); log.SetOutput(out) }()
	for _, v := range []string{"", "plain", "/items/0/id", "two words", "a=b", `say "x"`, `back\slash`, "tab\there",
		"nl\n", "\x7f", "é", "\u00a0", "\u2028", "\u200b", "\ufffd", "\xff", "日本", "emoji 😀", "a\x00b"} {
		buf.Reset()
		slog.Default().Warn("opsgen: result does not match its schema", "operation", "pets.list", "pointer", v, "message", v)
		want := buf.String()
		buf.Reset()
		conform.LogWarning("opsgen: result does not match its schema", "operation", "pets.list", "pointer", v, "message", v)
		if got := buf.String(); got != want {
			t.Errorf("%q: logWarning wrote %q, slog %q", v, got, want)
		}
	}
}

// A nil *slog.Logger given as the Logger is the default logger, as nil is.
func TestNilSlogLogger(t *testing.T) {
	var buf bytes.Buffer
	flags, out := log.Flags(), log.Writer()
	log.SetFlags(0)
	log.SetOutput(&buf)
	defer func() { log.SetFlags(flags); log.SetOutput(out) }()
	var l *slog.Logger
	(&Pipeline{Logger: l}).Report(t.Context(), []Warning{{OperationID: "a.b", Pointer: "/x", Message: "bad"}})
	if want := "WARN opsgen: result does not match its schema operation=a.b pointer=/x message=bad\n"; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	buf.Reset()
	var logs bytes.Buffer
	(&Pipeline{Logger: slog.New(slog.NewTextHandler(&logs, nil))}).Report(t.Context(), []Warning{{OperationID: "a.b", Pointer: "/x", Message: "bad"}})
	if buf.Len() != 0 || !bytes.Contains(logs.Bytes(), []byte("level=WARN msg=\"opsgen: result does not match its schema\" operation=a.b pointer=/x message=bad")) {
		t.Errorf("slog logger: %q; package log: %q", logs.String(), buf.String())
	}
}
