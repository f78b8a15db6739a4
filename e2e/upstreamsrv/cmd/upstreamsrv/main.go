// Command upstreamsrv runs the e2e upstream MCP server (package upstreamsrv)
// as its own process, so a test can kill it and start it again on the same
// address. It prints "listening http://ADDR" on stdout once it accepts
// connections; the MCP endpoint is that address plus /mcp.
//
//	upstreamsrv [-addr 127.0.0.1:0]
//
// UPSTREAMSRV_TOKEN, when set, is the bearer token /mcp requires.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/gtmgate/gtmgate/e2e/upstreamsrv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := upstreamsrv.New(upstreamsrv.Options{Token: os.Getenv("UPSTREAMSRV_TOKEN")})
	fmt.Printf("listening http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, srv.Handler()))
}
