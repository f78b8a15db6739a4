// Command specgen extracts the facts gtmgate's adapters depend on from a
// provider's own published API description, into the spec file its sandbox
// enforces (see package apispec). It reads the document from a file or URL
// given on the command line; the documents themselves are not committed,
// only the facts, with their source, commit and date.
//
//	go run ./cmd/specgen -provider gmail -in gmail-api.json \
//	    -source https://github.com/googleapis/google-api-go-client/blob/COMMIT/gmail/v1/gmail-api.json -commit COMMIT
//
// The operations kept for each provider are listed in targets.go.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

type inputs []string

func (i *inputs) String() string     { return strings.Join(*i, ",") }
func (i *inputs) Set(s string) error { *i = append(*i, s); return nil }

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "specgen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("specgen", flag.ContinueOnError)
	provider := fs.String("provider", "", "provider key; its target in targets.go lists the operations to keep")
	var in inputs
	fs.Var(&in, "in", "the published document, a file or an http(s) URL (repeat for an API published in several files); for googleads-proto, the google/ads/googleads/vNN directory of a googleapis checkout")
	source := fs.String("source", "", "where the document is published (recorded in the spec)")
	commit := fs.String("commit", "", "the repository commit the document was read at, when it came from one")
	out := fs.String("out", "", "spec file to write (default: the target's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	target, ok := targets[*provider]
	if !ok || len(in) == 0 || *source == "" {
		return fmt.Errorf("usage: specgen -provider P -in FILE|URL [-in …] -source URL [-commit SHA] [-out FILE]; providers: %s", strings.Join(targetNames(), ", "))
	}
	spec := &apispec.Spec{Provider: *provider, Source: *source, Commit: *commit, Retrieved: time.Now().UTC().Format(time.DateOnly),
		Schemas: map[string]*apispec.Schema{}, Headers: target.headers, PathVersion: target.pathVersion, EnumsFoldCase: target.enumsFoldCase}
	for _, name := range in {
		if target.format == "googleads-proto" {
			if err := fromGoogleAdsProtos(spec, name, target); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			continue
		}
		b, err := read(name)
		if err != nil {
			return err
		}
		switch target.format {
		case "discovery":
			err = fromDiscovery(spec, b, target)
		case "openapi":
			err = fromOpenAPI(spec, b, target)
		default:
			err = fmt.Errorf("target %s: unknown format %q", *provider, target.format)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	var missing []string
	for _, id := range target.operations {
		if _, ok := spec.Operation(id); !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the document has no operation %s: the provider moved on; read its changelog", strings.Join(missing, ", "))
	}
	slices.SortFunc(spec.Operations, func(a, b apispec.Operation) int { return strings.Compare(a.ID, b.ID) })
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return err
	}
	if _, err := apispec.Parse(b); err != nil {
		return err
	}
	path := *out
	if path == "" {
		path = target.out
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d operations, %d schemas\n", path, len(spec.Operations), len(spec.Schemas))
	return nil
}

func read(name string) ([]byte, error) {
	if !strings.HasPrefix(name, "https://") && !strings.HasPrefix(name, "http://") {
		return os.ReadFile(name)
	}
	c := &http.Client{Timeout: time.Minute}
	resp, err := c.Get(name)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", name, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}
