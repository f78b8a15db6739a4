package gmail

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

func rawEncoding(b []byte) string { return base64.URLEncoding.EncodeToString(b) }

// user resolves the {user} path value, writing 403 when it is not a held mailbox.
func (s *Sandbox) user(w http.ResponseWriter, r *http.Request) *mailbox {
	mb := s.mailbox(r.PathValue("user"))
	if mb == nil {
		googleapi.WriteError(w, http.StatusForbidden, "Delegation denied for "+r.PathValue("user"))
	}
	return mb
}

// page reads maxResults and pageToken, writing 400 when they are malformed.
func page(w http.ResponseWriter, r *http.Request) (offset, size int, ok bool) {
	size = 100
	if v := r.URL.Query().Get("maxResults"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			badRequest(w, "Invalid value for maxResults: %q", v)
			return 0, 0, false
		}
		size = min(n, 500)
	}
	if v := r.URL.Query().Get("pageToken"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			badRequest(w, "Invalid pageToken")
			return 0, 0, false
		}
		offset = n
	}
	return offset, size, true
}

// matching returns the messages of mb that match the request's q and
// labelIds, newest first; SPAM and TRASH only with includeSpamTrash.
func (s *Sandbox) matching(mb *mailbox, r *http.Request) []*storedMessage {
	q := r.URL.Query()
	terms := parseQuery(q.Get("q"))
	withSpam := q.Get("includeSpamTrash") == "true"
	var out []*storedMessage
	for _, m := range mb.messages {
		if !withSpam && (slices.Contains(m.labels, "SPAM") || slices.Contains(m.labels, "TRASH")) {
			continue
		}
		if !m.matches(terms, mb.labels, s.now()) {
			continue
		}
		if !containsAll(m.labels, q["labelIds"]) {
			continue
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b *storedMessage) int { return b.date.Compare(a.date) })
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func (s *Sandbox) listMessages(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	offset, size, ok := page(w, r)
	if !ok {
		return
	}
	all := s.matching(mb, r)
	resp := messageList{ResultSizeEstimate: len(all)}
	for _, m := range all[min(offset, len(all)):min(offset+size, len(all))] {
		resp.Messages = append(resp.Messages, Message{ID: m.id, ThreadID: m.threadID})
	}
	if offset+size < len(all) {
		resp.NextPageToken = strconv.Itoa(offset + size)
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}

func (s *Sandbox) getMessage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	m := mb.message(r.PathValue("id"))
	if m == nil {
		googleapi.WriteError(w, http.StatusNotFound, "Requested entity was not found.")
		return
	}
	q := r.URL.Query()
	googleapi.WriteJSON(w, http.StatusOK, m.resource(q.Get("format"), q["metadataHeaders"]))
}

func (s *Sandbox) listThreads(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	offset, size, ok := page(w, r)
	if !ok {
		return
	}
	var threads []Thread
	seen := map[string]bool{}
	for _, m := range s.matching(mb, r) { // newest first: a thread's first hit is its latest message
		if !seen[m.threadID] {
			seen[m.threadID] = true
			threads = append(threads, Thread{ID: m.threadID, Snippet: m.snippet, HistoryID: strconv.FormatUint(m.historyID, 10)})
		}
	}
	resp := threadList{ResultSizeEstimate: len(threads), Threads: threads[min(offset, len(threads)):min(offset+size, len(threads))]}
	if offset+size < len(threads) {
		resp.NextPageToken = strconv.Itoa(offset + size)
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}

func (s *Sandbox) getThread(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	id := r.PathValue("id")
	t := Thread{ID: id}
	for _, m := range mb.messages {
		if m.threadID == id {
			t.Messages = append(t.Messages, m.resource(r.URL.Query().Get("format"), r.URL.Query()["metadataHeaders"]))
			t.HistoryID = strconv.FormatUint(m.historyID, 10)
		}
	}
	if len(t.Messages) == 0 {
		googleapi.WriteError(w, http.StatusNotFound, "Requested entity was not found.")
		return
	}
	googleapi.WriteJSON(w, http.StatusOK, t)
}

func (s *Sandbox) listLabels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.user(w, r)
	if mb == nil {
		return
	}
	type label struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Type string `json:"type"`
	}
	var out []label
	for id, name := range mb.labels {
		typ := "system"
		if strings.HasPrefix(id, "Label_") {
			typ = "user"
		}
		out = append(out, label{ID: id, Name: name, Type: typ})
	}
	slices.SortFunc(out, func(a, b label) int { return strings.Compare(a.ID, b.ID) })
	googleapi.WriteJSON(w, http.StatusOK, map[string]any{"labels": out})
}
