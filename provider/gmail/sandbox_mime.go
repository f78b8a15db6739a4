package gmail

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/textproto"
	"sort"
	"strconv"
	"strings"
)

// parsePart reads one MIME entity (headers and body) into the API's
// MessagePart, as Gmail presents a stored message: leaf bodies decoded from
// their transfer encoding and re-encoded as base64url; attachments carry an
// attachmentId and size instead of data.
func parsePart(raw []byte, partID string) (*MessagePart, error) {
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw)))
	var headers []Header
	for {
		line, err := r.ReadContinuedLine()
		if err != nil {
			return nil, fmt.Errorf("read headers: %w", err)
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", line)
		}
		headers = append(headers, Header{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	body, _ := io.ReadAll(r.R)
	return buildPart(headers, body, partID)
}

func buildPart(headers []Header, body []byte, partID string) (*MessagePart, error) {
	p := &MessagePart{PartID: partID, Headers: headers, MimeType: "text/plain"}
	ct, params, err := mime.ParseMediaType(headerValue(headers, "Content-Type"))
	if err == nil {
		p.MimeType = ct
	}
	if strings.HasPrefix(p.MimeType, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for i := 0; ; i++ {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("read part %d: %w", i, err)
			}
			data, _ := io.ReadAll(part)
			child, err := buildPart(sortedHeaders(part.Header), data, childID(partID, i))
			if err != nil {
				return nil, err
			}
			p.Parts = append(p.Parts, *child)
		}
		return p, nil
	}
	switch strings.ToLower(headerValue(headers, "Content-Transfer-Encoding")) {
	case "base64":
		dec, err := io.ReadAll(base64.NewDecoder(base64.StdEncoding, bytes.NewReader(bytes.Join(bytes.Fields(body), nil))))
		if err != nil {
			return nil, fmt.Errorf("decode base64 part: %w", err)
		}
		body = dec
	case "quoted-printable":
		dec, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
		if err != nil {
			return nil, fmt.Errorf("decode quoted-printable part: %w", err)
		}
		body = dec
	}
	_, dparams, _ := mime.ParseMediaType(headerValue(headers, "Content-Disposition"))
	p.Filename = dparams["filename"]
	if p.Filename == "" {
		p.Filename = params["name"]
	}
	p.Body.Size = len(body)
	if p.Filename != "" {
		p.Body.AttachmentID = "ANGjdJ" + strconv.Itoa(len(body)) + "x" + strings.ReplaceAll(partID, ".", "_")
	} else {
		p.Body.Data = base64.URLEncoding.EncodeToString(body)
	}
	return p, nil
}

func childID(parent string, i int) string {
	if parent == "" {
		return strconv.Itoa(i)
	}
	return parent + "." + strconv.Itoa(i)
}

func headerValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

func sortedHeaders(h textproto.MIMEHeader) []Header {
	var out []Header
	for k, vs := range h {
		for _, v := range vs {
			out = append(out, Header{Name: k, Value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
