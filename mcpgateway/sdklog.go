package mcpgateway

import (
	"context"
	"log/slog"
)

// sdkLogger is the logger handed to the go-sdk's server and transport. A
// stateless server connects a session for every request and logs it at
// Info ("server connecting", "server session connected", "… disconnected"):
// three lines per tools/call at the default level, which cost more than
// the call's own handling. Its warnings and errors are kept.
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(minLevel{h: l.Handler(), min: slog.LevelWarn})
}

// minLevel passes on the records of h at min or above.
type minLevel struct {
	h   slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}

func (m minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h: m.h.WithAttrs(attrs), min: m.min}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h: m.h.WithGroup(name), min: m.min}
}
