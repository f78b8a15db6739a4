package mcpgateway

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The SDK's per-request Info lines are dropped; its warnings are kept,
// through loggers it derives with attributes or groups too.
func TestSDKLoggerKeepsWarnings(t *testing.T) {
	var buf bytes.Buffer
	l := sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Info("server connecting")
	l.With("session_id", "").WithGroup("g").Info("server session connected")
	l.With("k", "v").Warn("kept")
	out := buf.String()
	if strings.Contains(out, "server") {
		t.Errorf("an Info line was logged: %s", out)
	}
	if !strings.Contains(out, "msg=kept k=v") {
		t.Errorf("the warning was dropped: %q", out)
	}
}
