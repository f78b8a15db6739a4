package gmail

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// ThreadSummary is a thread in a list.
type ThreadSummary struct {
	ID        string `json:"id"`
	Snippet   string `json:"snippet"`
	HistoryID string `json:"history_id,omitempty"`
}

// ThreadDetail is a thread with its messages, oldest first.
type ThreadDetail struct {
	ID       string  `json:"id"`
	Messages []Email `json:"messages"`
}

func threadsTool(c *upstream.Client) gtmgate.Tool {
	props := listProperties()
	props["thread_id"] = &jsonschema.Schema{Type: "string"}
	return gtmgate.Tool{
		Name: "email_threads", Domain: "email", Provider: Provider, Title: "Gmail threads",
		Description: "Read Gmail conversations: list threads newest first, optionally matching a Gmail query q, or get one with all its messages.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "list threads", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "get", Description: "one thread with its messages", Category: gtmgate.CategoryCRMRead, Required: []string{"thread_id"}},
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
				return getThread(ctx, c, call, user, in.ThreadID)
			}
			q, err := listQuery(call, in)
			if err != nil {
				return nil, err
			}
			var list threadList
			if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/threads", Query: q, Token: call.Token}, &list); err != nil {
				return nil, fmt.Errorf("gmail: list threads: %w", err)
			}
			items := make([]ThreadSummary, len(list.Threads))
			for i, t := range list.Threads {
				items[i] = ThreadSummary{ID: t.ID, Snippet: t.Snippet, HistoryID: t.HistoryID}
			}
			return googleapi.NewPage(items, list.NextPageToken), nil
		},
	}
}

func getThread(ctx context.Context, c *upstream.Client, call *gtmgate.Call, user, id string) (any, error) {
	if err := validID("thread_id", id); err != nil {
		return nil, err
	}
	var t Thread
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/threads/" + id,
		Query: url.Values{"format": {"full"}}, Token: call.Token}, &t); err != nil {
		return nil, fmt.Errorf("gmail: get thread %s: %w", id, err)
	}
	d := ThreadDetail{ID: t.ID, Messages: make([]Email, len(t.Messages))}
	for i := range t.Messages {
		d.Messages[i] = decodeMessage(&t.Messages[i], true)
	}
	return d, nil
}
