package gmail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// decodeRaw reads the base64url "raw" field (padded or not) and checks it
// is a message with at least one recipient header or a draft.
func decodeRaw(raw string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(raw, "="))
	return b, err == nil && len(b) > 0
}

// withFrom adds From: the mailbox address when the client left it out, as
// Gmail does.
func withFrom(raw []byte, address string) []byte {
	p, err := parsePart(raw, "")
	if err == nil && headerValue(p.Headers, "From") == "" {
		return append([]byte("From: "+address+"\r\n"), raw...)
	}
	return raw
}

// gmailMessageID is the Message-ID Gmail gives a message it sends or saves
// as a draft; the one the client wrote is not kept. seq makes it unique.
func gmailMessageID(seq uint64) string {
	return fmt.Sprintf("<CAGsbx%012x+%d@mail.gmail.com>", seq*0x9e3779b1, seq)
}

// withMessageID replaces raw's Message-ID header (folded lines included) with
// id, as Gmail does server-side. The header block is rewritten with CRLF.
func withMessageID(raw []byte, id string) []byte {
	head, body := raw, []byte(nil)
	end := -1
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 && (end < 0 || i < end) {
			end, head, body = i, raw[:i], raw[i+len(sep):]
		}
	}
	lines := []string{"Message-ID: " + id}
	skipping := false
	for _, line := range strings.Split(strings.ReplaceAll(string(head), "\r\n", "\n"), "\n") {
		if folded := strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"); !folded {
			name, _, _ := strings.Cut(line, ":")
			skipping = strings.EqualFold(strings.TrimSpace(name), "Message-ID")
		}
		if !skipping && line != "" {
			lines = append(lines, line)
		}
	}
	return append([]byte(strings.Join(lines, "\r\n")+"\r\n\r\n"), body...)
}

// hasThread reports whether mb holds a thread with this id.
func (mb *mailbox) hasThread(id string) bool {
	for _, m := range mb.messages {
		if m.threadID == id {
			return true
		}
	}
	return false
}

func (s *Sandbox) send(w http.ResponseWriter, r *http.Request) {
	var req sendRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	raw, ok := decodeRaw(req.Raw)
	if !ok {
		badRequest(w, "Invalid value for ByteString: %s", clipForError(req.Raw))
		return
	}
	raw = withFrom(raw, mb.address)
	p, err := parsePart(raw, "")
	if err != nil {
		badRequest(w, "Invalid raw message: %v", err)
		return
	}
	if headerValue(p.Headers, "To")+headerValue(p.Headers, "Cc")+headerValue(p.Headers, "Bcc") == "" {
		badRequest(w, "Recipient address required")
		return
	}
	if req.ThreadID != "" && !mb.hasThread(req.ThreadID) {
		googleapi.WriteError(w, http.StatusNotFound, "Requested entity was not found.")
		return
	}
	m, err := s.store(mb, withMessageID(raw, gmailMessageID(s.history+1)), req.ThreadID, []string{"SENT"}, s.now())
	if err != nil {
		badRequest(w, "Invalid raw message: %v", err)
		return
	}
	googleapi.WriteJSON(w, http.StatusOK, Message{ID: m.id, ThreadID: m.threadID, LabelIDs: m.labels})
}

func (s *Sandbox) createDraft(w http.ResponseWriter, r *http.Request) {
	var req draftRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	raw, ok := decodeRaw(req.Message.Raw)
	if !ok {
		badRequest(w, "Invalid value for ByteString: %s", clipForError(req.Message.Raw))
		return
	}
	if req.Message.ThreadID != "" && !mb.hasThread(req.Message.ThreadID) {
		googleapi.WriteError(w, http.StatusNotFound, "Requested entity was not found.")
		return
	}
	raw = withMessageID(withFrom(raw, mb.address), gmailMessageID(s.history+1))
	m, err := s.store(mb, raw, req.Message.ThreadID, []string{"DRAFT"}, s.now())
	if err != nil {
		badRequest(w, "Invalid raw message: %v", err)
		return
	}
	s.nextID++
	id := "r" + strconv.FormatUint(s.nextID, 10)
	mb.drafts[id] = m.id
	googleapi.WriteJSON(w, http.StatusOK, Draft{ID: id, Message: Message{ID: m.id, ThreadID: m.threadID, LabelIDs: m.labels}})
}

func (s *Sandbox) getDraft(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	id := r.PathValue("id")
	mid, ok := mb.drafts[id]
	m := mb.message(mid)
	if !ok || m == nil {
		googleapi.WriteError(w, http.StatusNotFound, "Requested entity was not found.")
		return
	}
	// drafts.get takes format but no metadataHeaders.
	googleapi.WriteJSON(w, http.StatusOK, Draft{ID: id, Message: m.resource(r.URL.Query().Get("format"), nil)})
}

func clipForError(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
