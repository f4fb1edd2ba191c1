// Command samebytes is the transport floor of a gamerules call: a bare
// grpc-go server (no interceptors) with a pass-through codec that answers
// every captured call (bench/floor/raw: method and request bytes) with the
// real answer gamerulesd gave it, already encoded. It decodes nothing and
// builds nothing: what it costs per call is what grpc-go costs to carry
// the same request and answer bytes. A call it has not captured is
// answered UNIMPLEMENTED. bench/floor.sh measures it beside gamerulesd.
//
// Usage: samebytes -addr 127.0.0.1:PORT -calls calls.gob
package main

import (
	"flag"
	"fmt"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/bench/floor/raw"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	path := flag.String("calls", "", "captured calls (bench/floor -capture)")
	flag.Parse()
	calls, err := raw.Read(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samebytes:", err)
		os.Exit(1)
	}
	answers := map[string]map[string]raw.Frame{} // by method, then request bytes
	for _, c := range calls {
		if answers[c.Method] == nil {
			answers[c.Method] = map[string]raw.Frame{}
		}
		answers[c.Method][string(c.Request)] = c.Response
	}
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samebytes:", err)
		os.Exit(1)
	}
	s := grpc.NewServer(grpc.ForceServerCodecV2(raw.Codec{}), grpc.UnknownServiceHandler(func(_ any, st grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(st)
		var req raw.Frame
		if err := st.RecvMsg(&req); err != nil {
			return err
		}
		ans, ok := answers[method][string(req)]
		if !ok {
			return status.Errorf(codes.Unimplemented, "samebytes: call not captured: %s", method)
		}
		return st.SendMsg(&ans)
	}))
	fmt.Println(lis.Addr())
	if err := s.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, "samebytes:", err)
		os.Exit(1)
	}
}
