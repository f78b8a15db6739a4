// Command oauthmcpsrv runs the OAuth-protected e2e MCP server (package
// oauthmcpsrv) as its own process. It prints "listening http://ADDR" on
// stdout once it accepts connections; the MCP endpoint is that address
// plus /mcp.
//
//	oauthmcpsrv [-addr 127.0.0.1:0] [-ttl 1h]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/gtmgate/gtmgate/e2e/oauthmcpsrv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	ttl := flag.Duration("ttl", 0, "access token lifetime (1h when 0)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := oauthmcpsrv.New(oauthmcpsrv.Options{TokenTTL: *ttl})
	srv.SetBase("http://" + ln.Addr().String())
	fmt.Printf("listening http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, srv.Handler()))
}
