// Command idpsrv runs the sandbox OpenID provider (package idpsandbox) in
// its own process, for end-to-end tests that sign people in to the gtmgate
// binary. It prints exactly one line, "issuer=URL", on stdout once it
// accepts connections, and serves until killed; sign-ins are logged to
// stderr.
//
//	idpsrv [-listen 127.0.0.1:0] [-path /idp] -people FILE [-client id:secret:redirect_uri]...
//
// FILE is a JSON array of people:
//
//	[{"subject": "u-ada", "email": "ada@example.com", "email_verified": true,
//	  "name": "Ada Lovelace", "groups": ["admins"]}]
//
// The issuer is http://ADDR+path, ADDR being the address actually listened
// on. Because a test usually learns gtmgate's redirect URI only after it
// started gtmgate with this issuer, and cannot call the provider's methods
// across processes, two test endpoints sit outside the issuer's path
// (never for anything but a loopback test):
//
//   - POST /admin/clients with a JSON client {"id", "secret",
//     "redirect_uris", "post_logout_redirect_uris"} registers it (or
//     replaces the one with that id): 204;
//   - POST /admin/groups?subject=SUB with a JSON array of strings sets that
//     person's groups for the next sign-in: 204, or 404 for an unknown
//     subject.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run parses the flags, listens, announces the issuer on stdout and serves.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("idpsrv", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	path := fs.String("path", "/idp", `the issuer's path ("" for none)`)
	peopleFile := fs.String("people", "", "JSON file with the people who can sign in")
	var clients clientFlags
	fs.Var(&clients, "client", "a client as id:secret:redirect_uri (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path != "" && !strings.HasPrefix(*path, "/") {
		return errors.New(`idpsrv: -path must be "" or start with /`)
	}
	if *peopleFile == "" {
		return errors.New("idpsrv: -people is required")
	}
	people, err := readPeople(*peopleFile)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("idpsrv: %w", err)
	}
	issuer := "http://" + ln.Addr().String() + strings.TrimSuffix(*path, "/")
	provider, err := idpsandbox.New(idpsandbox.Options{
		Issuer:  issuer,
		People:  people,
		Clients: clients,
		Logger:  slog.New(slog.NewTextHandler(stderr, nil)),
	})
	if err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(strings.TrimSuffix(*path, "/")+"/", provider)
	mux.HandleFunc("POST /admin/clients", addClient(provider))
	mux.HandleFunc("POST /admin/groups", setGroups(provider))
	fmt.Fprintf(stdout, "issuer=%s\n", issuer)
	return http.Serve(ln, mux)
}

func readPeople(name string) ([]idpsandbox.Person, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("idpsrv: %w", err)
	}
	var people []idpsandbox.Person
	if err := json.Unmarshal(b, &people); err != nil {
		return nil, fmt.Errorf("idpsrv: people file %s: %w", name, err)
	}
	return people, nil
}

// clientFlags collects the repeated -client flags.
type clientFlags []idpsandbox.Client

func (c *clientFlags) String() string {
	ids := make([]string, len(*c))
	for i, client := range *c {
		ids[i] = client.ID
	}
	return strings.Join(ids, ",")
}

// Set parses id:secret:redirect_uri; the redirect URI has colons of its own.
func (c *clientFlags) Set(v string) error {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return errors.New("want id:secret:redirect_uri")
	}
	*c = append(*c, idpsandbox.Client{ID: parts[0], Secret: parts[1], RedirectURIs: []string{parts[2]}})
	return nil
}

func addClient(p *idpsandbox.Provider) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var c idpsandbox.Client
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&c); err != nil {
			http.Error(w, "want a JSON client: "+err.Error(), http.StatusBadRequest)
			return
		}
		if c.ID == "" || c.Secret == "" || len(c.RedirectURIs) == 0 {
			http.Error(w, "id, secret and redirect_uris are required", http.StatusBadRequest)
			return
		}
		p.AddClient(c)
		w.WriteHeader(http.StatusNoContent)
	}
}

func setGroups(p *idpsandbox.Provider) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var groups []string
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&groups); err != nil {
			http.Error(w, "want a JSON array of groups: "+err.Error(), http.StatusBadRequest)
			return
		}
		err := p.SetGroups(r.URL.Query().Get("subject"), groups)
		if errors.Is(err, idpsandbox.ErrUnknownSubject) {
			http.Error(w, "unknown subject", http.StatusNotFound)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}
