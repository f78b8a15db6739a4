package googleads

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// microsMetrics are money metrics reported in micros without a _micros
// suffix: the costs per interaction, impression, view or conversion, each the
// cost (cost_micros) divided by a count. Checked against common/metrics.proto
// of v25: average_cpv is gone since v22 (trueview_average_cpv replaces it);
// fields ending in _micros need no entry. The experiment and lift estimates
// (control_cost_per_conversion, cost_per_incremental_conversion,
// cost_per_lifted_cookie…) are left as Google sends them: their unit is not
// documented.
var microsMetrics = []string{"metrics.average_cost", "metrics.average_cpc", "metrics.average_cpe",
	"metrics.average_cpm", "metrics.trueview_average_cpv", "metrics.active_view_cpm",
	"metrics.cost_per_conversion", "metrics.cost_per_all_conversions",
	"metrics.cost_per_current_model_attributed_conversion", "metrics.cost_per_platform_comparable_conversion"}

// flatten turns one Search result ({"campaign": {"name": …}, "metrics": {"costMicros": "…"}})
// into a flat row keyed by GAQL field path, with metrics as numbers, fields
// Google omitted as zero or null, and micros converted (see the package doc).
func flatten(result map[string]any, fieldMask string) map[string]any {
	row := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			path := prefix + snake(k)
			if sub, ok := v.(map[string]any); ok {
				walk(path+".", sub)
				continue
			}
			row[path] = v
		}
	}
	walk("", result)
	for _, f := range strings.Split(fieldMask, ",") {
		f = snake(strings.TrimSpace(f))
		if _, ok := row[f]; f == "" || ok {
			continue
		}
		switch {
		case strings.HasPrefix(f, "metrics.") || strings.HasSuffix(f, "_micros"):
			row[f] = 0.0
		case slices.ContainsFunc(boolFields, func(b string) bool { return strings.HasSuffix(f, b) }):
			row[f] = false
		default:
			row[f] = nil
		}
	}
	for k, v := range row {
		micros := strings.HasSuffix(k, "_micros")
		if !micros && !strings.HasPrefix(k, "metrics.") {
			continue
		}
		n, ok := number(v)
		if !ok {
			continue
		}
		row[k] = n
		switch {
		case micros:
			row[strings.TrimSuffix(k, "_micros")] = units(n)
		case slices.Contains(microsMetrics, k):
			row[k+"_micros"] = n
			row[k] = units(n)
		}
	}
	return row
}

// boolFields are boolean fields Google omits when false.
var boolFields = []string{".negative", ".explicitly_shared"}

// units converts micros to currency units (to the micro; Google's averages carry fractions of a micro).
func units(micros float64) float64 { return math.Round(micros) / 1e6 }

// number reads a JSON number or a numeric string (int64 is a string in proto JSON).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		n, err := strconv.ParseFloat(x, 64)
		return n, err == nil
	}
	return 0, false
}

// snake converts a proto JSON name to its GAQL spelling: adGroupCriterion → ad_group_criterion.
func snake(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// cursor is the position in a result set: Google's page token and an offset
// into that page. It is bound to the query so it cannot page another one.
type cursor struct {
	Token  string `json:"t,omitempty"`
	Offset int    `json:"o,omitempty"`
	Query  string `json:"q"`
}

func queryHash(q string) string {
	h := fnv.New64a()
	h.Write([]byte(q))
	return strconv.FormatUint(h.Sum64(), 36)
}

func (c cursor) encode(query string) string {
	c.Query = queryHash(query)
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made by encode for the same query.
func decodeCursor(s, query string) (cursor, error) {
	var c cursor
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Offset < 0 {
		return cursor{}, &gtmgate.Error{Code: gtmgate.EValidation, Message: "cursor is not a cursor this tool returned", Err: fmt.Errorf("google ads: decode cursor: %v", err)}
	}
	if c.Query != queryHash(query) {
		return cursor{}, gtmgate.Errorf(gtmgate.EValidation, "cursor belongs to a different query").
			WithHint("send the same parameters as the call that returned the cursor")
	}
	return c, nil
}
