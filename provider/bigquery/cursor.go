package bigquery

import (
	"encoding/base64"
	"encoding/json"

	"github.com/gtmgate/gtmgate"
)

// pageCursor is what a next_cursor holds: enough to fetch the next page of
// a finished query job with jobs.getQueryResults, or, for list actions, the
// provider's page token.
type pageCursor struct {
	JobID     string `json:"j,omitempty"`
	Location  string `json:"l,omitempty"`
	PageToken string `json:"p,omitempty"`
	// Project binds the cursor to the project it was issued for.
	Project string `json:"project,omitempty"`
}

func (c pageCursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (pageCursor, error) {
	var c pageCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return c, gtmgate.Errorf(gtmgate.EValidation, "cursor is not a next_cursor of this tool").
			WithHint("pass next_cursor from the previous page unchanged")
	}
	return c, nil
}
