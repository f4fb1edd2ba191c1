// Command gamerules-mcp serves every game as Model Context Protocol tools
// (package mcp) to one agent host: over stdio by default, the transport of
// hosts that start a process (Claude Desktop's mcpServers), or over
// streamable HTTP with --http (the same handler gamerulesd mounts at /mcp,
// without the server's limits: for a local agent and for tests).
//
// Usage:
//
//	gamerules-mcp [--http addr] [--timeout 5s] [--version]
//
// With --http it prints "listening on http://<addr>/mcp" on stderr once it
// listens (addr may end in :0 for any free port).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gamerules/gamerules/mcp"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// when unset, the module version or VCS revision from the build info.
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gamerules-mcp:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) error {
	fs := flag.NewFlagSet("gamerules-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve streamable HTTP at http://<addr>/mcp instead of stdio (e.g. 127.0.0.1:8090; :0 picks a port)")
	timeout := fs.Duration("timeout", mcp.DefaultTimeout, "deadline of one tool call")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *showVersion {
		fmt.Fprintln(stdout, buildVersion())
		return nil
	}
	opts := mcp.Options{Timeout: *timeout, Version: buildVersion()}
	if *httpAddr == "" {
		err := mcp.NewServer(opts).Run(ctx, &sdkmcp.IOTransport{Reader: stdin, Writer: stdout})
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.HTTPHandler(opts))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "listening on http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// buildVersion is version, else the module version or VCS revision of the
// build.
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return s.Value[:12]
		}
	}
	return "dev"
}
