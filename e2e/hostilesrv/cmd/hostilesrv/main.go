// Command hostilesrv runs the hostile upstream MCP server (package
// hostilesrv) as its own process. It prints "listening http://ADDR" on
// stdout once it accepts connections; the MCP endpoint is ADDR/mcp.
//
//	hostilesrv [-addr 127.0.0.1:0]
//
// HOSTILESRV_TOKEN, when set, is the bearer token /mcp requires.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/gtmgate/gtmgate/e2e/hostilesrv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, hostilesrv.New(os.Getenv("HOSTILESRV_TOKEN")).Handler()))
}
