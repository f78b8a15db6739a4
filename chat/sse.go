package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
)

// maxEventBytes bounds one SSE event; a larger one ends the stream as an upstream failure.
const maxEventBytes = 8 << 20

var errEventTooLarge = errors.New("chat: upstream SSE event too large")

// eventReader splits an SSE stream into events, each returned with its
// terminating blank line, bytes as received.
type eventReader struct {
	br *bufio.Reader
	ev []byte
}

// next returns the next event. The slice is reused by the following call. At
// the end of the stream it returns what is left (possibly an unterminated
// event) with the read error.
func (er *eventReader) next() ([]byte, error) {
	er.ev = er.ev[:0]
	for {
		line, err := er.br.ReadSlice('\n')
		er.ev = append(er.ev, line...)
		if len(er.ev) > maxEventBytes {
			er.ev = nil // do not keep a huge buffer in the pool
			return nil, errEventTooLarge
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			return er.ev, err
		case isBlankLine(line) && len(er.ev) > len(line):
			return er.ev, nil
		}
	}
}

func isBlankLine(line []byte) bool {
	return len(line) == 1 || (len(line) == 2 && line[0] == '\r')
}

// streamFilter inspects each event: it captures usage, notes upstream error
// events and, when strip is set (the gateway asked for usage, the client did
// not), removes what include_usage added: the usage-only final chunk and a
// trailing "usage":null member of the other chunks.
type streamFilter struct {
	strip          bool
	usage          usage
	upstreamFailed bool
}

var (
	dataPrefix    = []byte("data:")
	doneMarker    = []byte("[DONE]")
	errorPrefix   = []byte(`{"error"`)
	usageKey      = []byte(`"usage"`)
	nullUsageTail = []byte(`,"usage":null}`)
)

// filter returns the event to forward, possibly rewritten in place, or nil to drop it.
func (sf *streamFilter) filter(ev []byte) []byte {
	start, end := dataBounds(ev)
	if start < 0 {
		return ev // comment, keep-alive or other field
	}
	data := ev[start:end]
	switch {
	case bytes.Equal(data, doneMarker):
	case bytes.HasPrefix(data, errorPrefix):
		sf.upstreamFailed = true
	case bytes.HasSuffix(data, nullUsageTail):
		if sf.strip { // `,"usage":null}` → `}`: the top-level member, by position
			cut := end - len(nullUsageTail)
			ev[cut] = '}'
			ev = append(ev[:cut+1], ev[end:]...)
		}
	case bytes.Contains(data, usageKey):
		var chunk struct {
			Choices []json.RawMessage `json:"choices"`
			Usage   *usage            `json:"usage"`
		}
		if json.Unmarshal(data, &chunk) == nil && chunk.Usage != nil {
			sf.usage = *chunk.Usage
			if sf.strip && len(chunk.Choices) == 0 {
				return nil
			}
		}
	}
	return ev
}

// dataBounds locates the payload of the event's first data line, without the
// optional space after the colon and the line ending; start is -1 when none.
func dataBounds(ev []byte) (start, end int) {
	for off := 0; off < len(ev); {
		line := ev[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if bytes.HasPrefix(line, dataPrefix) {
			start = off + len(dataPrefix)
			if start < len(ev) && ev[start] == ' ' {
				start++
			}
			end = off + len(bytes.TrimRight(line, "\r\n"))
			return start, max(start, end)
		}
		off += len(line)
	}
	return -1, -1
}
