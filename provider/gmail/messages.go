package gmail

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type listInput struct {
	MessageID        string   `json:"message_id"`
	ThreadID         string   `json:"thread_id"`
	Q                string   `json:"q"`
	LabelIDs         []string `json:"label_ids"`
	IncludeSpamTrash bool     `json:"include_spam_trash"`
}

// listProperties are the inputs shared by email_messages and email_threads.
func listProperties() map[string]*jsonschema.Schema {
	return map[string]*jsonschema.Schema{
		"q": {Type: "string", MaxLength: jsonschema.Ptr(2000)},
		"label_ids": {Type: "array", MaxItems: jsonschema.Ptr(10),
			Items: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)}},
		"include_spam_trash": {Type: "boolean"},
	}
}

func messagesTool(c *upstream.Client) gtmgate.Tool {
	props := listProperties()
	props["message_id"] = &jsonschema.Schema{Type: "string"}
	return gtmgate.Tool{
		Name: "email_messages", Domain: "email", Provider: Provider, Title: "Gmail messages",
		Description: "Read Gmail messages: list them newest first, search them with a Gmail query q, or get one with its text body.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "list messages, optionally by label_ids or q", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "get", Description: "one message with its text body", Category: gtmgate.CategoryCRMRead, Required: []string{"message_id"}},
			{Name: "search", Description: "messages matching a Gmail query q", Category: gtmgate.CategoryCRMRead, List: true, Required: []string{"q"}},
		},
		Properties: props,
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in listInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			user, err := userPath(c.APIVersion(), call.Account)
			if err != nil {
				return nil, err
			}
			if call.Action.Name == "get" {
				return getMessage(ctx, c, call, user, in.MessageID)
			}
			return listMessages(ctx, c, call, user, in)
		},
	}
}

// listQuery builds the query string shared by messages.list and threads.list.
func listQuery(call *gtmgate.Call, in listInput) (url.Values, error) {
	q := url.Values{"maxResults": {strconv.Itoa(call.Limit)}}
	term := ""
	if call.Filter != nil {
		t, err := filterQuery(call.Tool.Name, call.Filter)
		if err != nil {
			return nil, err
		}
		term = t
	}
	if s := joinQuery(in.Q, term); s != "" {
		q.Set("q", s)
	}
	for _, l := range in.LabelIDs {
		q.Add("labelIds", l)
	}
	if in.IncludeSpamTrash {
		q.Set("includeSpamTrash", "true")
	}
	if call.Cursor != "" {
		q.Set("pageToken", call.Cursor)
	}
	return q, nil
}

func listMessages(ctx context.Context, c *upstream.Client, call *gtmgate.Call, user string, in listInput) (any, error) {
	q, err := listQuery(call, in)
	if err != nil {
		return nil, err
	}
	var list messageList
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/messages", Query: q, Token: call.Token}, &list); err != nil {
		return nil, fmt.Errorf("gmail: list messages: %w", err)
	}
	emails, err := fetchAll(len(list.Messages), func(i int) (Email, error) {
		var m Message
		q := url.Values{"format": {"metadata"}, "metadataHeaders": {"From", "To", "Cc", "Subject", "Date", "Message-ID"}}
		if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/messages/" + url.PathEscape(list.Messages[i].ID),
			Query: q, Token: call.Token}, &m); err != nil {
			return Email{}, fmt.Errorf("gmail: message %s metadata: %w", list.Messages[i].ID, err)
		}
		return decodeMessage(&m, false), nil
	})
	if err != nil {
		return nil, err
	}
	return googleapi.NewPage(emails, list.NextPageToken), nil
}

func getMessage(ctx context.Context, c *upstream.Client, call *gtmgate.Call, user, id string) (any, error) {
	if err := validID("message_id", id); err != nil {
		return nil, err
	}
	var m Message
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/messages/" + id,
		Query: url.Values{"format": {"full"}}, Token: call.Token}, &m); err != nil {
		return nil, fmt.Errorf("gmail: get message %s: %w", id, err)
	}
	return decodeMessage(&m, true), nil
}

// fetchAll runs n fetches, eight at a time, keeping their order; it returns
// the first error.
func fetchAll[T any](n int, fetch func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = fetch(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
