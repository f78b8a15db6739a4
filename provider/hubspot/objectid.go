package hubspot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// hsObjectID is a record id in a v4 association response. HubSpot's
// published specs disagree on its type: the current associations spec types
// toObjectId as a string, an older rollout as an integer, so both decode to
// the id's decimal digits. It encodes as a string, as the current spec says.
type hsObjectID string

// UnmarshalJSON accepts a JSON number or a string of decimal digits.
func (id *hsObjectID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("hubspot: object id %s is neither a number nor a string", b)
		}
		s = n.String()
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return fmt.Errorf("hubspot: object id %q is not a record id", s)
	}
	*id = hsObjectID(s)
	return nil
}
