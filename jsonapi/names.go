package jsonapi

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gtmgate/gtmgate"
)

// CheckMemberNames refuses JSON that two readers could understand
// differently: an object with the same member name twice (at any depth), and
// top-level names that differ only in case ("tool" and "TOOL"), which a
// case-insensitive decoder would merge. Either is a VALIDATION_ERROR naming
// the member. Decode b first for the better syntax message: invalid JSON is
// refused here too, with a plainer one.
func CheckMemberNames(b []byte) error {
	// A bytes.Buffer is parsed in place; any other reader is copied into
	// the decoder's own buffer first.
	dec := jsontext.NewDecoder(bytes.NewBuffer(b))
	var top topNames
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return namesError(err)
		}
		if dec.StackDepth() != 1 || tok.Kind() != '"' {
			continue
		}
		if kind, n := dec.StackIndex(1); kind != '{' || n%2 == 0 {
			continue // an array element or a member value, not a name
		}
		if err := top.add(tok.String()); err != nil {
			return err
		}
	}
}

// CheckTopLevelNames is CheckMemberNames for the top-level object only, for
// large bodies forwarded as sent (chat) where only the gateway's own fields
// matter: nested values are skipped without tracking their names.
func CheckTopLevelNames(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(b), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return gtmgate.Errorf(gtmgate.EValidation, "request body is not a JSON object")
	}
	var top topNames
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return namesError(err)
		}
		if err := top.add(tok.String()); err != nil {
			return err
		}
		if err := dec.SkipValue(); err != nil {
			return namesError(err)
		}
	}
	return nil
}

// topNames collects the names of one object, refusing repeats in any case.
type topNames []string

func (t *topNames) add(name string) error {
	for _, seen := range *t {
		if seen == name {
			return gtmgate.Errorf(gtmgate.EValidation, "duplicate field %s", name).WithHint("send each field once")
		}
		if strings.EqualFold(seen, name) {
			return gtmgate.Errorf(gtmgate.EValidation, "fields %q and %q differ only in case", seen, name).
				WithHint("field names are case-sensitive: send " + seen + " once")
		}
	}
	*t = append(*t, name)
	return nil
}

func namesError(err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) && errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return gtmgate.Errorf(gtmgate.EValidation, "duplicate field %s", memberPath(se.JSONPointer)).
			WithHint("send each field once")
	}
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: "invalid JSON", Err: err}
}

// memberPath renders a JSON pointer as the dotted path callers write.
func memberPath(p jsontext.Pointer) string {
	s := strings.TrimPrefix(string(p), "/")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "/", "."), "~1", "/")
	return strings.ReplaceAll(s, "~0", "~")
}
