package brave

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// specFile is the facts of Brave's Web Search and News Search endpoints,
// transcribed from Brave's API reference (each operation names its page; the
// pages fact says what came from where). Brave publishes no machine-readable
// description. It is the one source of the country, language and market
// codes, the count and offset bounds and the documented defaults: the tools'
// schemas and the sandbox read them from here.
//
//go:embed apispec.json
var specFile []byte

// braveSpec is specFile parsed; it is read-only, so every sandbox shares it.
var braveSpec = apispec.MustParse(specFile)

// The operations of braveSpec.
const (
	webSearchOp  = "web.search"
	newsSearchOp = "news.news_search"
)

// specOperation returns an operation of braveSpec; the ids are constants of
// this package, so a missing one is a broken spec file.
func specOperation(id string) *apispec.Operation {
	op, ok := braveSpec.Operation(id)
	if !ok {
		panic("brave: apispec.json has no operation " + id)
	}
	return op
}

// specParam returns a query parameter of an operation of braveSpec.
func specParam(op *apispec.Operation, name string) apispec.Param {
	for _, p := range op.Params {
		if p.Name == name {
			return p
		}
	}
	panic(fmt.Sprintf("brave: apispec.json: %s has no parameter %s", op.ID, name))
}

// specDefaults are the documented defaults of the parameters, by operation
// (the spec's defaults fact; Param has no default).
var specDefaults = func() map[string]map[string]json.RawMessage {
	var d map[string]map[string]json.RawMessage
	if err := json.Unmarshal(braveSpec.Facts["defaults"], &d); err != nil || len(d) == 0 {
		panic("brave: apispec.json has no defaults fact")
	}
	return d
}()

// specDefault decodes the documented default of a parameter into out.
func specDefault(op *apispec.Operation, name string, out any) {
	if err := json.Unmarshal(specDefaults[op.ID][name], out); err != nil {
		panic(fmt.Sprintf("brave: apispec.json: default of %s %s: %v", op.ID, name, err))
	}
}

// integerBounds returns the smallest and largest integers an integer
// parameter's pattern allows: Param has no minimum or maximum, so the spec
// states Brave's documented bounds ("Min: 1 Max: 20") as a pattern.
func integerBounds(p apispec.Param) (lo, hi int) {
	re := regexp.MustCompile("^(?:" + p.Pattern + ")$")
	lo, hi = -1, -1
	for n := 0; n <= 1000; n++ {
		if re.MatchString(strconv.Itoa(n)) {
			if lo < 0 {
				lo = n
			}
			hi = n
		}
	}
	if lo < 0 {
		panic(fmt.Sprintf("brave: apispec.json: parameter %s allows no integer up to 1000", p.Name))
	}
	return lo, hi
}
