package chat

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

func TestWithIncludeUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want string
	}{
		{name: "absent: appended, rest byte-identical", body: `{"model":"m","stream":true,"messages":[{"content":"<&>"}]}  `,
			want: `{"model":"m","stream":true,"messages":[{"content":"<&>"}],"stream_options":{"include_usage":true}}  `},
		{name: "false: set", body: `{"model":"m","stream_options":{"include_usage":false}}`,
			want: `{"model":"m","stream_options":{"include_usage":true}}`},
		{name: "other options kept", body: `{"model":"m","stream_options":{"x":"<1>"}}`,
			want: `{"model":"m","stream_options":{"include_usage":true,"x":"<1>"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := parseChatRequest([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			got, err := withIncludeUsage([]byte(tt.body), req.StreamOptions)
			if err != nil || string(got) != tt.want {
				t.Errorf("withIncludeUsage = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func FuzzWithIncludeUsage(f *testing.F) {
	for _, s := range []string{`{"model":"m"}`, `{"model":"m","stream_options":null}`,
		`{"model":"m","stream_options":{"include_usage":false},"x":[1,{"y":"}"}]}`, ` {"model":"m"} `, `{"model":"m","model":"n"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req, err := parseChatRequest([]byte(body))
		if err != nil {
			return
		}
		out, err := withIncludeUsage([]byte(body), req.StreamOptions)
		if err != nil {
			t.Fatalf("withIncludeUsage(%s): %v", body, err)
		}
		var in, got map[string]any
		json.Unmarshal([]byte(body), &in)
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("result %s is not JSON: %v", out, err)
		}
		so, _ := got["stream_options"].(map[string]any)
		if so["include_usage"] != true {
			t.Fatalf("result %s lacks include_usage", out)
		}
		delete(in, "stream_options")
		delete(got, "stream_options")
		if !reflect.DeepEqual(in, got) {
			t.Fatalf("members changed: %s → %s", body, out)
		}
	})
}

func TestForwardRequestHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header string
		want   bool
	}{
		{"Authorization", false}, {"Proxy-Authorization", false}, {"X-Api-Key", false}, {"Api-Key", false},
		{"X-Goog-Api-Key", false}, {"X-Admin-Key", false}, {"Cookie", false}, {"X-Auth-Token", false},
		{"Openai-Organization", false}, {"Connection", false}, {"Accept-Encoding", false}, {"X-Session-Id", false},
		{"Content-Type", true}, {"Accept", true}, {"User-Agent", true}, {"Openai-Beta", true},
		{"X-Stainless-Lang", true}, {"Idempotency-Key", true},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			t.Parallel()
			if got := forwardRequestHeader(http.CanonicalHeaderKey(tt.header)); got != tt.want {
				t.Errorf("forwardRequestHeader(%s) = %v, want %v", tt.header, got, tt.want)
			}
		})
	}
}
