package gmail

import (
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// searchOperators are the Gmail search operators a filter property may name.
var searchOperators = map[string]bool{"from": true, "to": true, "cc": true, "bcc": true, "subject": true, "label": true,
	"filename": true, "is": true, "has": true, "in": true, "category": true, "list": true, "deliveredto": true}

// filterQuery maps a common filter to a Gmail search term: EQ/CONTAINS_TOKEN
// on an operator property → "from:value", NEQ/NOT_CONTAINS_TOKEN → "-from:value",
// GT/GTE/LT/LTE on date → after:/before:, HAS_PROPERTY attachment → has:attachment.
func filterQuery(tool string, f *gtmgate.Filter) (string, error) {
	prop := strings.ToLower(f.Property)
	switch {
	case prop == "date" || prop == "internaldate":
		v, _ := f.Value.(string)
		t, err := parseDay(v)
		if err != nil {
			return "", gtmgate.Errorf(gtmgate.EValidation, "%s: filter on date needs a YYYY-MM-DD or RFC 3339 value, got %v", tool, f.Value)
		}
		switch f.Operator {
		case "GT":
			return "after:" + t.AddDate(0, 0, 1).Format("2006/01/02"), nil
		case "GTE":
			return "after:" + t.Format("2006/01/02"), nil
		case "LT":
			return "before:" + t.Format("2006/01/02"), nil
		case "LTE":
			return "before:" + t.AddDate(0, 0, 1).Format("2006/01/02"), nil
		}
		return "", googleapi.Unsupported(tool, f, "GT, GTE, LT or LTE on date")
	case prop == "attachment" && f.Operator == "HAS_PROPERTY":
		return "has:attachment", nil
	case prop == "attachment" && f.Operator == "NOT_HAS_PROPERTY":
		return "-has:attachment", nil
	case !searchOperators[prop]:
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s: cannot filter on %q", tool, f.Property).
			WithHint("filter on from, to, cc, bcc, subject, label, filename, is, has, in, category or date; or write a Gmail query in q")
	}
	v, ok := f.Value.(string)
	if !ok || strings.TrimSpace(v) == "" {
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s: filter on %s needs a non-empty string value", tool, prop)
	}
	term := prop + ":" + quoteTerm(v)
	switch f.Operator {
	case "EQ", "CONTAINS_TOKEN":
		return term, nil
	case "NEQ", "NOT_CONTAINS_TOKEN":
		return "-" + term, nil
	}
	return "", googleapi.Unsupported(tool, f, "EQ, NEQ, CONTAINS_TOKEN or NOT_CONTAINS_TOKEN")
}

// quoteTerm quotes a value with spaces so it stays one search term.
func quoteTerm(v string) string {
	v = strings.Join(strings.Fields(strings.NewReplacer(`"`, "", "(", "", ")", "").Replace(v)), " ")
	if strings.Contains(v, " ") {
		return `"` + v + `"`
	}
	return v
}

func parseDay(v string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: %w", v, err)
	}
	return t, nil
}

// joinQuery ANDs Gmail search terms.
func joinQuery(terms ...string) string {
	var out []string
	for _, t := range terms {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}
