package mcpupstream

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestProgressBodyRoutesAsRead(t *testing.T) {
	t.Parallel()
	const p1 = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"gtmgate-1","progress":1,"total":2,"message":"half"}}`
	const p2 = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"gtmgate-2","progress":2}}`
	const resp = `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`
	tests := []struct {
		name   string
		stream string
		want   string
	}{
		{"one event", "id: 1\ndata: " + p1 + "\n\n", "gtmgate-1 1/2 half"},
		{"crlf", "data: " + p1 + "\r\n\r\n", "gtmgate-1 1/2 half"},
		{"no space after colon", "data:" + p1 + "\n\n", "gtmgate-1 1/2 half"},
		{"two then response", "data: " + p1 + "\n\ndata: " + p2 + "\n\ndata: " + resp + "\n\n", "gtmgate-1 1/2 half,gtmgate-2 2/0 "},
		{"data split over lines", "data: {\"jsonrpc\":\"2.0\",\ndata: \"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"gtmgate-3\",\"progress\":3}}\n\n", "gtmgate-3 3/0 "},
		{"comment and priming event", ": keepalive\nid: 0\ndata:\n\ndata: " + p2 + "\n\n", "gtmgate-2 2/0 "},
		{"named event ignored", "event: other\ndata: " + p1 + "\n\n", ""},
		{"unterminated event not routed", "data: " + p1 + "\n", ""},
		{"other notification", `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"notifications/progress"}}` + "\n\n", ""},
		{"event over the bound ends routing", "data: " + p1 + strings.Repeat(" ", 400) + "\n\ndata: " + p2 + "\n\n", ""},
	}
	for _, tc := range tests {
		for _, chunk := range []int{1, 7, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, chunk), func(t *testing.T) {
				t.Parallel()
				var got []string
				a := &attempt{}
				b := &progressBody{rc: io.NopCloser(&chunked{s: tc.stream, n: chunk}), max: 300, a: a,
					route: func(p *mcp.ProgressNotificationParams) {
						got = append(got, fmt.Sprintf("%v %g/%g %s", p.ProgressToken, p.Progress, p.Total, p.Message))
					}}
				out, err := io.ReadAll(b)
				if err != nil || string(out) != tc.stream {
					t.Fatalf("the stream was changed: %q, %v", out, err)
				}
				if g := strings.Join(got, ","); g != tc.want {
					t.Errorf("routed %q, want %q", g, tc.want)
				}
			})
		}
	}
}

// chunked reads s n bytes at a time.
type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := min(c.n, len(p), len(c.s))
	copy(p, c.s[:k])
	c.s = c.s[k:]
	return k, nil
}
