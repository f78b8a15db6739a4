package gmail

import (
	"encoding/base64"
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
	m, err := s.store(mb, raw, req.ThreadID, []string{"SENT"}, s.now())
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
	m, err := s.store(mb, withFrom(raw, mb.address), req.Message.ThreadID, []string{"DRAFT"}, s.now())
	if err != nil {
		badRequest(w, "Invalid raw message: %v", err)
		return
	}
	s.nextID++
	id := "r" + strconv.FormatUint(s.nextID, 10)
	mb.drafts[id] = m.id
	googleapi.WriteJSON(w, http.StatusOK, Draft{ID: id, Message: Message{ID: m.id, ThreadID: m.threadID, LabelIDs: m.labels}})
}

func clipForError(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
