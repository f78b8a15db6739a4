package mcpupstream

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress notifications are routed as the event stream carrying them is
// read, not by the go-sdk's ClientOptions.ProgressNotificationHandler: the
// go-sdk hands a response to its waiting call at once, from the reading
// goroutine, but queues notifications for another goroutine, so the
// handler may run for a call's last notifications after the call returned
// (and its route was removed). Read here, a notification is delivered
// before the event after it, the call's response, can be read at all.

// progressBody passes an event stream through, handing each
// notifications/progress event to route as it is read.
type progressBody struct {
	rc    io.ReadCloser
	route func(*mcp.ProgressNotificationParams)
	max   int // bound of a pending line, as the go-sdk bounds an event
	a     *attempt

	line       []byte // the incomplete line read so far
	data       []byte // the current event's data
	hasData    bool
	named      bool // the current event has a name other than "message"
	overflow   bool // the current event exceeded max; ignore the rest
	eventBytes int
}

func (b *progressBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.scan(p[:n])
	return n, err
}

func (b *progressBody) Close() error { return b.rc.Close() }

func (b *progressBody) scan(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.appendLine(p)
			return
		}
		b.appendLine(p[:i+1])
		p = p[i+1:]
		if !b.overflow {
			b.field(bytes.TrimRight(b.line, "\r\n"))
		}
		b.line = b.line[:0]
	}
}

// appendLine adds p to the current line, counting it against the current
// event's bound as the go-sdk does (every byte of the event's lines).
func (b *progressBody) appendLine(p []byte) {
	b.eventBytes += len(p)
	if b.max > 0 && b.eventBytes > b.max-8 && !b.overflow {
		// The go-sdk fails the stream at this event: say why.
		b.overflow, b.line = true, b.line[:0]
		if b.a != nil {
			b.a.mu.Lock()
			b.a.o.tooLarge = true
			b.a.mu.Unlock()
		}
	}
	if !b.overflow {
		b.line = append(b.line, p...)
	}
}

func (b *progressBody) field(line []byte) {
	if len(line) == 0 {
		b.dispatch()
		b.eventBytes = 0
		return
	}
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "data":
		if b.hasData {
			b.data = append(b.data, '\n')
		}
		b.data, b.hasData = append(b.data, value...), true
	case "event":
		b.named = len(value) > 0 && string(value) != "message"
	}
}

func (b *progressBody) dispatch() {
	defer func() { b.data, b.hasData, b.named = b.data[:0], false, false }()
	if !b.hasData || b.named || !bytes.Contains(b.data, []byte(`notifications/progress`)) {
		return
	}
	var msg struct {
		Method string                          `json:"method"`
		Params *mcp.ProgressNotificationParams `json:"params"`
	}
	if json.Unmarshal(b.data, &msg) == nil && msg.Method == "notifications/progress" && msg.Params != nil {
		b.route(msg.Params)
	}
}
