package gmail

import (
	_ "embed"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// specFile is the facts of the API's discovery document the sandbox
// enforces (scripts/specgen writes it).
//
//go:embed apispec.json
var specFile []byte

// SandboxToken is the access token the Gmail sandbox accepts.
const SandboxToken = "sandbox-gmail-token"

// Sandbox is an in-process Gmail API v1 for two mailboxes of the fictional
// B2B SaaS company Ledgerly: alex@ledgerly.example (also "me"; about twenty
// messages in eight threads with customers, partners and colleagues, some
// HTML-only, some with attachments) and sales@ledgerly.example. It serves
// users.messages list/get/send, users.threads list/get, users.drafts
// create/get and users.labels list. Messages are stored as raw RFC 5322 MIME and
// presented as Gmail does (payload parts with base64url bodies); a sent
// message or draft is decoded from the raw MIME it was given and stored, so
// tests can read back the exact bytes with Raw, except that, as Gmail does,
// its Message-ID header is replaced by one of the sandbox's own
// (<…@mail.gmail.com>). Search supports from:, to:,
// cc:, subject:, label:, in:, is:, has:attachment, filename:, after:,
// before:, newer_than:, older_than:, negation and free text.
//
// It requires "Authorization: Bearer sandbox-gmail-token" and answers with
// Google's error body: 401 UNAUTHENTICATED, 400 INVALID_ARGUMENT (bad raw
// message, bad page token), 404 NOT_FOUND (unknown message or thread), 403
// PERMISSION_DENIED (mailbox it does not hold). Tests inject faults through
// the embedded Guard: FailNext(status, n) and Requests. State is kept in
// memory behind a mutex. NewSandbox's Handler is a *Sandbox.
type Sandbox struct {
	googleapi.Guard
	// Spec checks every request and answer against the Gmail API's discovery document.
	Spec    *apispec.Enforcer
	handler http.Handler
	now     func() time.Time

	mu        sync.Mutex
	mailboxes map[string]*mailbox
	nextID    uint64
	history   uint64
}

type mailbox struct {
	address  string
	messages []*storedMessage // in insertion order
	drafts   map[string]string
	labels   map[string]string // id → name
}

type storedMessage struct {
	id, threadID  string
	labels        []string
	date          time.Time
	raw           []byte
	payload       *MessagePart
	subject       string
	snippet       string
	searchText    string
	hasAttachment bool
	filenames     []string
	historyID     uint64
}

// NewSandbox returns the Gmail sandbox as a ProviderSandbox.
func NewSandbox() gtmgate.ProviderSandbox {
	s := NewSandboxAt(time.Now())
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "me", Label: "alex@ledgerly.example"},
		{ID: "sales@ledgerly.example", Label: "Ledgerly sales inbox"},
	}}
}

// NewSandboxAt returns a sandbox whose seeded mail is dated relative to now.
func NewSandboxAt(now time.Time) *Sandbox {
	s := &Sandbox{Guard: googleapi.Guard{Token: SandboxToken}, now: time.Now, mailboxes: map[string]*mailbox{}, nextID: 0x18f2a3b4c5d60000}
	s.seed(now)
	mux := googleapi.NewMux()
	const u = "/gmail/v1/users/{user}"
	mux.HandleFunc("GET "+u+"/messages", s.listMessages)
	mux.HandleFunc("GET "+u+"/messages/{id}", s.getMessage)
	mux.HandleFunc("POST "+u+"/messages/send", s.send)
	mux.HandleFunc("GET "+u+"/threads", s.listThreads)
	mux.HandleFunc("GET "+u+"/threads/{id}", s.getThread)
	mux.HandleFunc("POST "+u+"/drafts", s.createDraft)
	mux.HandleFunc("GET "+u+"/drafts/{id}", s.getDraft)
	mux.HandleFunc("GET "+u+"/labels", s.listLabels)
	s.Spec = googleapi.Enforce(parsedSpec(), mux)
	s.handler = s.Wrap(s.Spec)
	return s
}

// ServeHTTP serves the Gmail API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Raw returns the stored RFC 5322 bytes of a message of mailbox ("me" or an address).
func (s *Sandbox) Raw(user, id string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.mailbox(user)
	if mb == nil {
		return nil, false
	}
	if m := mb.message(id); m != nil {
		return m.raw, true
	}
	return nil, false
}

// mailbox resolves a userId; s.mu must be held.
func (s *Sandbox) mailbox(user string) *mailbox {
	if user == "me" {
		user = "alex@ledgerly.example"
	}
	return s.mailboxes[strings.ToLower(user)]
}

func (mb *mailbox) message(id string) *storedMessage {
	for _, m := range mb.messages {
		if m.id == id {
			return m
		}
	}
	return nil
}

// store parses raw and adds it to mb; threadID "" starts a new thread. s.mu must be held.
func (s *Sandbox) store(mb *mailbox, raw []byte, threadID string, labels []string, date time.Time) (*storedMessage, error) {
	payload, err := parsePart(raw, "")
	if err != nil {
		return nil, err
	}
	s.nextID += 0x1f3d
	s.history++
	m := &storedMessage{id: strconv.FormatUint(s.nextID, 16), threadID: threadID, labels: labels, date: date, raw: raw,
		payload: payload, historyID: s.history}
	if m.threadID == "" {
		m.threadID = m.id
	}
	m.subject, _ = new(mime.WordDecoder).DecodeHeader(headerValue(payload.Headers, "Subject"))
	text := decodeMessage(&Message{Payload: payload}, true)
	body := ""
	if text.Text != nil {
		body = *text.Text
	}
	m.snippet = snippet(body)
	m.hasAttachment = len(text.Attachments) > 0
	for _, a := range text.Attachments {
		m.filenames = append(m.filenames, a.Filename)
	}
	m.searchText = strings.ToLower(strings.Join([]string{m.subject, body, headerValue(payload.Headers, "From"),
		headerValue(payload.Headers, "To")}, " "))
	mb.messages = append(mb.messages, m)
	return m, nil
}

func snippet(body string) string {
	s := strings.Join(strings.Fields(body), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}

// resource renders a stored message in the requested format.
func (m *storedMessage) resource(format string, metadataHeaders []string) Message {
	out := Message{ID: m.id, ThreadID: m.threadID, LabelIDs: m.labels, Snippet: m.snippet,
		HistoryID: strconv.FormatUint(m.historyID, 10), InternalDate: strconv.FormatInt(m.date.UnixMilli(), 10), SizeEstimate: len(m.raw)}
	switch format {
	case "minimal":
	case "metadata":
		// "When given and format is METADATA, only include headers specified."
		p := &MessagePart{MimeType: m.payload.MimeType}
		for _, h := range m.payload.Headers {
			if len(metadataHeaders) == 0 {
				p.Headers = append(p.Headers, h)
			}
			for _, want := range metadataHeaders {
				if strings.EqualFold(h.Name, want) {
					p.Headers = append(p.Headers, h)
				}
			}
		}
		out.Payload = p
	case "raw":
		out.Raw = rawEncoding(m.raw)
	default:
		out.Payload = m.payload
	}
	return out
}

func badRequest(w http.ResponseWriter, format string, args ...any) {
	googleapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf(format, args...))
}
