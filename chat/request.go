package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// chatRequest is what the gateway reads of a chat body; the rest is forwarded untouched.
type chatRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	// StreamOptions is nil when absent, "null" when null.
	StreamOptions json.RawMessage `json:"stream_options"`
	// The completion's token caps, read leniently: the upstream judges them.
	MaxCompletionTokens json.RawMessage `json:"max_completion_tokens"`
	MaxTokens           json.RawMessage `json:"max_tokens"`
}

// tokenCap is the most tokens the completion may generate, as far as the
// gateway can tell (0 when the request sets no cap it can read). The quota
// holds it while the completion runs.
func (c *chatRequest) tokenCap() int64 {
	for _, raw := range []json.RawMessage{c.MaxCompletionTokens, c.MaxTokens} {
		var n float64
		if len(raw) > 0 && json.Unmarshal(raw, &n) == nil && n > 0 && n < 1<<40 {
			return int64(n)
		}
	}
	return 0
}

// wantsUsage reports whether the client asked for the streamed usage chunk.
func (c *chatRequest) wantsUsage() bool {
	var so struct {
		IncludeUsage bool `json:"include_usage"`
	}
	return len(c.StreamOptions) > 0 && json.Unmarshal(c.StreamOptions, &so) == nil && so.IncludeUsage
}

// parseChatRequest reads model, stream and stream_options from body. The
// body is forwarded as sent, so one that the upstream could read differently
// from this parse (a duplicate or case-variant top-level name: "model" and
// "MODEL") is refused; otherwise the allow-list would check one model while
// the upstream runs another.
func parseChatRequest(body []byte) (*chatRequest, error) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "field %s must be a %s", te.Field, te.Type)
		}
		return nil, gtmgate.Errorf(gtmgate.EValidation, "request body is not a JSON object: %v", err).
			WithHint("send an OpenAI chat completions body")
	}
	if err := jsonapi.CheckTopLevelNames(body); err != nil {
		return nil, err
	}
	if req.Model == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "field model is required").
			WithHint("name the model, for example \"model\": \"gpt-4o-mini\"")
	}
	if len(req.StreamOptions) > 0 && !bytes.Equal(req.StreamOptions, []byte("null")) && req.StreamOptions[0] != '{' {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "field stream_options must be an object")
	}
	return &req, nil
}

// includeUsageField is appended to a body that has no stream_options.
const includeUsageField = `,"stream_options":{"include_usage":true}`

// withIncludeUsage returns body with stream_options.include_usage set to true.
// A body without stream_options gets the member appended, every other byte
// unchanged; otherwise the top-level members are re-encoded (values verbatim,
// key order sorted).
func withIncludeUsage(body []byte, streamOptions json.RawMessage) ([]byte, error) {
	if len(streamOptions) == 0 {
		end := bytes.LastIndexByte(body, '}')
		if end < 0 {
			return nil, errors.New("chat: body is not an object")
		}
		out := make([]byte, 0, len(body)+len(includeUsageField))
		out = append(out, body[:end]...)
		out = append(out, includeUsageField...)
		return append(out, body[end:]...), nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, fmt.Errorf("chat: decode body: %w", err)
	}
	var so map[string]json.RawMessage
	if err := json.Unmarshal(streamOptions, &so); err != nil {
		return nil, fmt.Errorf("chat: decode stream_options: %w", err)
	}
	if so == nil { // "null"
		so = map[string]json.RawMessage{}
	}
	so["include_usage"] = json.RawMessage("true")
	var err error
	if top["stream_options"], err = marshalVerbatim(so); err != nil {
		return nil, err
	}
	return marshalVerbatim(top)
}

// marshalVerbatim encodes v without HTML escaping, so raw values keep their bytes.
func marshalVerbatim(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("chat: encode body: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// readBody reads a request body of at most limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	tooLarge := func() error {
		return gtmgate.Errorf(gtmgate.EPayloadTooLarge, "request body exceeds %d bytes", limit).
			WithHint("shorten the conversation or send fewer attachments")
	}
	if r.ContentLength > limit {
		return nil, tooLarge()
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge()
		}
		return nil, gtmgate.Errorf(gtmgate.EValidation, "could not read the request body: %v", err)
	}
	return body, nil
}

// readAll reads r to the end into a buffer sized by the expected length when
// known, so a body of known length costs one allocation.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > 64<<20 {
		size = 0
	}
	buf := make([]byte, 0, max(size+1, 512))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
