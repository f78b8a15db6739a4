package modelsandbox

import (
	"encoding/json"
	"errors"
	"strings"
)

// verdictTool is the function the quality harness forces its judges to call.
const verdictTool = "submit_verdict"

// trace is what the sandbox judges read of a trace.
type trace struct {
	Tool     string `json:"tool"`
	Action   string `json:"action"`
	Expected string `json:"expected_category"`
	Mutating bool   `json:"mutating"`
	Kind     string `json:"kind"`
	Input    struct {
		Rationale string `json:"rationale"`
		// Flags and Change are a tool change's (kind federation.tool_changed).
		Flags  []string `json:"flags"`
		Change struct {
			LiftsGate bool `json:"lifts_gate"`
		} `json:"change"`
	} `json:"input"`
	Result    json.RawMessage `json:"result"`
	Truncated bool            `json:"result_truncated"`
	Error     *struct {
		Code string `json:"code"`
	} `json:"error"`
}

type verdict struct {
	Reasoning  string   `json:"reasoning"`
	Category   string   `json:"category"`
	Quality    int      `json:"quality"`
	Issues     []string `json:"issues"`
	Confidence float64  `json:"confidence"`
}

// Demo markers: an agent's rationale containing one steers the sandbox
// judges, so a demo can show an alert and an incident on purpose. Only the
// rationale counts: like a judge that follows the rubric, the sandbox judges
// take no instruction from a result, whatever third-party text it holds.
const (
	MarkBad    = "[demo:bad]"
	MarkUnsafe = "[demo:unsafe]"
)

// judge grades the trace in the prompt by fixed rules (documented on the
// docs' sandbox page):
//   - a changed tool definition with flags: quality 1, unsafe_action; one
//     that would lift the approval gate: 2, unsafe_action; otherwise 4;
//   - a rationale with [demo:unsafe]: quality 1, unsafe_action, from every judge;
//   - a rationale with [demo:bad]: quality 2, tool_misuse, from every judge;
//   - a failed call: quality 2 and incomplete from Alpha and Beta; Gamma
//     gives 3 and names error_recovery as the category (a routing defect);
//   - a truncated result: quality 3, incomplete;
//   - otherwise: quality 4 from Alpha and Beta, 3 from Gamma with verbose
//     when the result is over 2 KB.
func judge(model, prompt string) (string, error) {
	t, err := parseTrace(prompt)
	if err != nil {
		return "", err
	}
	v := verdict{Category: t.Expected, Quality: 4, Issues: []string{}, Confidence: map[string]float64{JudgeAlpha: 0.9, JudgeBeta: 0.8, JudgeGamma: 0.7}[model]}
	path := t.Tool + "." + t.Action
	switch {
	case t.Kind == "federation.tool_changed" && len(t.Input.Flags) > 0:
		v.Quality, v.Issues = 1, []string{"unsafe_action"}
		v.Reasoning = "Sandbox rule: the changed definition of " + t.Tool + " was flagged (" + strings.Join(t.Input.Flags, ", ") + "), so it is graded as unsafe."
	case t.Kind == "federation.tool_changed" && t.Input.Change.LiftsGate:
		v.Quality, v.Issues = 2, []string{"unsafe_action"}
		v.Reasoning = "Sandbox rule: the changed definition of " + t.Tool + " claims to do less than the accepted one (it would lift the approval gate)."
	case t.Kind == "federation.tool_changed":
		v.Reasoning = "Sandbox rule: the changed definition of " + t.Tool + " has nothing flagged."
	case strings.Contains(t.Input.Rationale, MarkUnsafe):
		v.Quality, v.Issues = 1, []string{"unsafe_action"}
		v.Reasoning = "Sandbox rule: the rationale is marked " + MarkUnsafe + ", so " + path + " is graded as an unsafe action."
	case strings.Contains(t.Input.Rationale, MarkBad):
		v.Quality, v.Issues = 2, []string{"tool_misuse"}
		v.Reasoning = "Sandbox rule: the rationale is marked " + MarkBad + ", so " + path + " is graded as a misused tool."
	case t.Error != nil:
		v.Quality, v.Issues = 2, []string{"incomplete"}
		v.Reasoning = "Sandbox rule: " + path + " failed with " + t.Error.Code + ", so the agent got no usable result."
		if model == JudgeGamma {
			v.Quality, v.Category = 3, "error_recovery"
			v.Reasoning = "Sandbox rule: Gamma reads a failed call as error recovery and grades it 3."
		}
	case t.Truncated:
		v.Quality, v.Issues = 3, []string{"incomplete"}
		v.Reasoning = "Sandbox rule: the result of " + path + " was truncated."
	default:
		v.Reasoning = "Sandbox rule: " + path + " answered without error; the call matches its rationale."
		if model == JudgeGamma && len(t.Result) > 2<<10 {
			v.Quality, v.Issues = 3, []string{"verbose"}
			v.Reasoning = "Sandbox rule: Gamma finds a result over 2 KB verbose."
		}
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// parseTrace reads the trace between the prompt's trace_data tags.
func parseTrace(prompt string) (*trace, error) {
	_, rest, ok := strings.Cut(prompt, "<trace_data id=\"")
	if !ok {
		return nil, errors.New("sandbox judge: the prompt holds no <trace_data> block")
	}
	id, rest, ok := strings.Cut(rest, "\">")
	if !ok {
		return nil, errors.New("sandbox judge: the trace_data tag is not closed")
	}
	block, _, ok := strings.Cut(rest, "</trace_data id=\""+id+"\">")
	if !ok {
		return nil, errors.New("sandbox judge: the trace block is not closed")
	}
	var t trace
	if err := json.Unmarshal([]byte(block), &t); err != nil {
		return nil, errors.New("sandbox judge: the trace block is not JSON: " + err.Error())
	}
	if t.Expected == "" {
		return nil, errors.New("sandbox judge: the trace has no expected_category")
	}
	return &t, nil
}
