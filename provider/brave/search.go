package brave

import (
	"context"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Item is one search result as the tools return it.
type Item struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
	Age         string `json:"age,omitempty"`
	PageAge     string `json:"page_age,omitempty"`
	Source      string `json:"source,omitempty"`
}

// Result is a page of search results; NextCursor is the next page's offset.
type Result struct {
	Query      string `json:"query"`
	Items      []Item `json:"items"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// result is one Brave web or news result as the API sends it. Only a web
// SearchResult has a profile; a NewsResult names its publisher in meta_url
// alone, so a news item's source is the publisher's hostname.
type result struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description"`
	Age         string `json:"age"`
	PageAge     string `json:"page_age"`
	Profile     *struct {
		Name string `json:"name"`
	} `json:"profile,omitempty"`
	MetaURL *struct {
		Hostname string `json:"hostname"`
	} `json:"meta_url,omitempty"`
}

// query is the web answer's Query object; only WebSearchApiResponse carries
// more_results_available.
type query struct {
	Original             string `json:"original"`
	MoreResultsAvailable bool   `json:"more_results_available"`
}

// webAnswer is what the web tool reads of WebSearchApiResponse.
type webAnswer struct {
	Query query `json:"query"`
	Web   struct {
		Results []result `json:"results"`
	} `json:"web"`
}

// newsAnswer is what the news tool reads of NewsSearchApiResponse.
type newsAnswer struct {
	Results []result `json:"results"`
}

func (r result) item() Item {
	it := Item{Title: r.Title, URL: r.URL, Description: r.Description, Age: r.Age, PageAge: r.PageAge}
	switch {
	case r.Profile != nil && r.Profile.Name != "":
		it.Source = r.Profile.Name
	case r.MetaURL != nil:
		it.Source = r.MetaURL.Hostname
	}
	return it
}

func items(rs []result) []Item {
	out := make([]Item, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.item())
	}
	return out
}

var searchAction = gtmgate.Action{Name: "search", Description: "Run the search and return one page of results.",
	Category: gtmgate.CategorySearchQuery, Required: []string{"query"}}

func webSearchTool(c *upstream.Client) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "web_search", Domain: "search", Title: "Web search (Brave)", Provider: Provider,
		Description: "Search the public web with Brave: titles, URLs, snippets and ages.",
		Actions:     []gtmgate.Action{searchAction},
		Properties:  properties(webEndpoint),
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			p, err := newParams(call, webEndpoint)
			if err != nil {
				return nil, err
			}
			var resp webAnswer
			if err := search(ctx, c, call, webEndpoint.path, p, &resp); err != nil {
				return nil, err
			}
			return Result{Query: p.Query, Items: items(resp.Web.Results), NextCursor: p.nextCursor(resp.Query.MoreResultsAvailable)}, nil
		},
	}
}

func newsSearchTool(c *upstream.Client) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "news_search", Domain: "search", Title: "News search (Brave)", Provider: Provider,
		Description: "Search recent news with Brave: headlines, URLs, snippets, publishers and ages.",
		Actions:     []gtmgate.Action{searchAction},
		Properties:  properties(newsEndpoint),
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			p, err := newParams(call, newsEndpoint)
			if err != nil {
				return nil, err
			}
			// NewsSearchApiResponse is {type, query, results}; its query has no
			// more_results_available, so a full page is the only sign of more.
			var resp newsAnswer
			if err := search(ctx, c, call, newsEndpoint.path, p, &resp); err != nil {
				return nil, err
			}
			return Result{Query: p.Query, Items: items(resp.Results), NextCursor: p.nextCursor(len(resp.Results) >= p.count)}, nil
		},
	}
}
