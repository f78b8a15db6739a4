package chat

import (
	"bufio"
	"strings"
	"testing"
)

func TestStreamFilter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		strip     bool
		event     string
		want      string // "" means dropped
		wantUsage usage
	}{
		{name: "null usage trimmed when stripping", strip: true,
			event: "data: {\"choices\":[{\"delta\":{\"content\":\"a,\\\"usage\\\":null}\"}}],\"usage\":null}\n\n",
			want:  "data: {\"choices\":[{\"delta\":{\"content\":\"a,\\\"usage\\\":null}\"}}]}\n\n"},
		{name: "null usage kept when the client asked", event: "data: {\"choices\":[],\"usage\":null}\n\n",
			want: "data: {\"choices\":[],\"usage\":null}\n\n"},
		{name: "usage chunk dropped when stripping", strip: true,
			event: "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n", wantUsage: usage{3, 4}},
		{name: "usage chunk kept when the client asked",
			event: "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n",
			want:  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n", wantUsage: usage{3, 4}},
		{name: "usage on a choice chunk is kept", strip: true,
			event: "data: {\"choices\":[{\"index\":0}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n",
			want:  "data: {\"choices\":[{\"index\":0}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n", wantUsage: usage{1, 2}},
		{name: "CRLF and no space", strip: true, event: "data:{\"choices\":[],\"usage\":null}\r\n\r\n",
			want: "data:{\"choices\":[]}\r\n\r\n"},
		{name: "comment kept", strip: true, event: ": keep-alive\n\n", want: ": keep-alive\n\n"},
		{name: "done kept", strip: true, event: "data: [DONE]\n\n", want: "data: [DONE]\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sf := streamFilter{strip: tt.strip}
			got := string(sf.filter([]byte(tt.event)))
			if got != tt.want || sf.usage != tt.wantUsage {
				t.Errorf("filter = %q, usage %+v; want %q, %+v", got, sf.usage, tt.want, tt.wantUsage)
			}
		})
	}
}

func TestEventReader(t *testing.T) {
	t.Parallel()
	long := "data: " + strings.Repeat("x", 100) + "\n\n"
	stream := "data: a\n\n: ping\n\nevent: x\r\ndata: b\r\n\r\n" + long + "data: tail"
	er := eventReader{br: bufio.NewReaderSize(strings.NewReader(stream), 16)}
	want := []string{"data: a\n\n", ": ping\n\n", "event: x\r\ndata: b\r\n\r\n", long}
	for i, w := range want {
		ev, err := er.next()
		if err != nil || string(ev) != w {
			t.Fatalf("event %d = %q, %v; want %q", i, ev, err, w)
		}
	}
	if ev, err := er.next(); string(ev) != "data: tail" || err == nil {
		t.Errorf("last = %q, %v; want the unterminated tail and EOF", ev, err)
	}
}
