package gmail

// The Gmail API v1 JSON shapes (users.messages, users.threads, users.drafts).

// Message is the API's Message resource.
type Message struct {
	ID           string       `json:"id"`
	ThreadID     string       `json:"threadId"`
	LabelIDs     []string     `json:"labelIds,omitempty"`
	Snippet      string       `json:"snippet,omitempty"`
	HistoryID    string       `json:"historyId,omitempty"`
	InternalDate string       `json:"internalDate,omitempty"`
	Payload      *MessagePart `json:"payload,omitempty"`
	SizeEstimate int          `json:"sizeEstimate,omitempty"`
	Raw          string       `json:"raw,omitempty"`
}

// MessagePart is one MIME part; Body.Data is base64url.
type MessagePart struct {
	PartID   string        `json:"partId"`
	MimeType string        `json:"mimeType"`
	Filename string        `json:"filename"`
	Headers  []Header      `json:"headers"`
	Body     PartBody      `json:"body"`
	Parts    []MessagePart `json:"parts,omitempty"`
}

// Header is one message header.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// PartBody is a part's content or a reference to an attachment.
type PartBody struct {
	AttachmentID string `json:"attachmentId,omitempty"`
	Size         int    `json:"size"`
	Data         string `json:"data,omitempty"`
}

// Thread is the API's Thread resource.
type Thread struct {
	ID        string    `json:"id"`
	Snippet   string    `json:"snippet,omitempty"`
	HistoryID string    `json:"historyId,omitempty"`
	Messages  []Message `json:"messages,omitempty"`
}

type messageList struct {
	Messages           []Message `json:"messages,omitempty"`
	NextPageToken      string    `json:"nextPageToken,omitempty"`
	ResultSizeEstimate int       `json:"resultSizeEstimate"`
}

type threadList struct {
	Threads            []Thread `json:"threads,omitempty"`
	NextPageToken      string   `json:"nextPageToken,omitempty"`
	ResultSizeEstimate int      `json:"resultSizeEstimate"`
}

// sendRequest is the body of messages.send and the message of drafts.create.
type sendRequest struct {
	Raw      string `json:"raw"`
	ThreadID string `json:"threadId,omitempty"`
}

type draftRequest struct {
	Message sendRequest `json:"message"`
}

// Draft is the API's Draft resource.
type Draft struct {
	ID      string  `json:"id"`
	Message Message `json:"message"`
}
