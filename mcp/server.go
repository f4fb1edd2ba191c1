package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/service"
	"github.com/gamerules/gamerules/service/rpcs"
)

// DefaultTimeout is the deadline of one tool call when Options.Timeout is
// zero: the API's default request deadline (server.Options.RequestTimeout).
const DefaultTimeout = 5 * time.Second

// DefaultMaxRequestBytes is the largest HTTP request body HTTPHandler reads
// when Options.MaxRequestBytes is zero: the API's default MaxRecvBytes.
const DefaultMaxRequestBytes = 4 << 20

// Options configures NewServer and HTTPHandler. The zero value serves every
// game of service.New with the default bounds.
type Options struct {
	// Service is the rules service the tools call (nil: service.New()).
	Service *service.Server
	// API, when not nil, is Service as the tools' API calls reach it: each
	// call of a tool to an RPC (LegalMoves, Playout, …) goes through it
	// instead of calling Service directly. gamerulesd sets it to Service
	// behind its admission (rest.NewServer with its interceptors: the heavy
	// lane with the HTTP caller as client, the deadline, the log line and
	// metrics of the RPC), so that a tool call buys what the REST call of
	// that RPC buys, no more. nil: Service.
	API rpcs.Service
	// Timeout is the deadline of every tool call (0: DefaultTimeout); a call
	// past it answers a tool error saying so, as the API answers
	// DEADLINE_EXCEEDED.
	Timeout time.Duration
	// Version is the server version reported in the MCP handshake's
	// serverInfo ("" : "dev").
	Version string
	// MaxRequestBytes bounds an HTTP request body, in bytes (0:
	// DefaultMaxRequestBytes); HTTPHandler only.
	MaxRequestBytes int64
	// Logger receives the SDK's own log lines and a tool's panic, with its
	// stack (nil: none).
	Logger *slog.Logger
	// AllowAnyHost turns off the SDK's DNS-rebinding guard, which refuses
	// (403) a request that arrives on a loopback address with a Host
	// header that is not loopback: set it when a reverse proxy on the same
	// machine forwards the public Host (HTTPHandler only).
	AllowAnyHost bool
}

func (o Options) withDefaults() Options {
	if o.Service == nil {
		o.Service = service.New()
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	return o
}

// instructions is what the server tells an agent host at the handshake.
const instructions = `gamerules is a stateless rules oracle for board games (list_games lists them). ` +
	`Call list_games, then new_game; every answer holds the game's state as a string: pass that exact string as "state" to the next call. ` +
	`apply_move answers the new state, whether the game is finished, the next legal moves and a text board. ` +
	`A refused move is an error result that says why and lists legal moves: pick one of them and call again. ` +
	`The rules of each game are resources (gamerules://rules/<game>); the prompt play_game sets you up to play one side.`

// NewServer returns an MCP server with every tool, resource and prompt of
// the package, calling o.Service in process. The server is safe for
// concurrent use and keeps no game between calls: serve it over any
// transport (HTTPHandler, sdkmcp.StdioTransport).
func NewServer(o Options) *sdkmcp.Server {
	o = o.withDefaults()
	srv := sdkmcp.NewServer(&sdkmcp.Implementation{
		Name:    "gamerules",
		Title:   "gamerules: board game rules oracle",
		Version: o.Version,
	}, &sdkmcp.ServerOptions{Instructions: instructions, Logger: o.Logger})
	t := &tools{svc: o.Service, api: o.API, timeout: o.Timeout, logger: o.Logger}
	if t.api == nil {
		t.api = o.Service
	}
	t.add(srv)
	addResources(srv, o.Service)
	addPrompts(srv, o.Service)
	srv.AddReceivingMiddleware(argumentShapes)
	return srv
}

// HTTPHandler returns the streamable HTTP transport of NewServer(o), to be
// mounted at a path such as /mcp. It is stateless (no Mcp-Session-Id: any
// replica answers any request, as the REST API) and answers each POST with
// one JSON body (no event stream), so a request is one bounded exchange
// that the server's limits, logging and metrics see whole. The SDK refuses
// a loopback request whose Host header is not loopback (DNS rebinding;
// o.AllowAnyHost turns that off) and a body over o.MaxRequestBytes (413).
func HTTPHandler(o Options) http.Handler {
	o = o.withDefaults()
	srv := NewServer(o)
	return sdkmcp.NewStreamableHTTPHandler(func(*http.Request) *sdkmcp.Server { return srv }, &sdkmcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       o.Logger,
		MaxRequestBodyBytes:          o.MaxRequestBytes,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   o.AllowAnyHost,
	})
}

// toolError is a tool result with isError set and text as its content:
// the answer to every fault of a call (a bad argument, a refused move, a
// deadline), which a model reads and can recover from; a protocol error
// would end its turn instead.
func toolError(text string) *sdkmcp.CallToolResult {
	return &sdkmcp.CallToolResult{IsError: true, Content: []sdkmcp.Content{&sdkmcp.TextContent{Text: text}}}
}

// serviceText is an error of the service as a model should read it: the
// status message ("move.notation: illegal move: …"), which names the
// field; a deadline says what to do about it, and so does a refusal of
// the server's admission (RESOURCE_EXHAUSTED: busy, call again).
func serviceText(err error, timeout time.Duration) string {
	late := fmt.Sprintf("the call did not finish within its deadline (%v): ask for less work (fewer games, fewer plies, a smaller depth)", timeout)
	// A service error (*service.Error) or a refusal of the server's
	// admission (Options.API): either has a gRPC status.
	var gs interface{ GRPCStatus() *status.Status }
	if errors.As(err, &gs) {
		st := gs.GRPCStatus()
		switch st.Code() {
		case codes.DeadlineExceeded, codes.Canceled:
			return late
		case codes.ResourceExhausted:
			return "the server is busy: " + st.Message() + "; call again in a second, or ask for less work"
		}
		return st.Message()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return late
	}
	return err.Error()
}

// reasonOf is the ErrorInfo reason of a service error
// (service.ReasonIllegalMove, …; "" for another error).
func reasonOf(err error) string {
	var se *service.Error
	if !errors.As(err, &se) {
		return ""
	}
	for _, d := range se.Proto().GetDetails() {
		var info errdetails.ErrorInfo
		if d.UnmarshalTo(&info) == nil {
			return info.GetReason()
		}
	}
	return ""
}

// metadataOf is the ErrorInfo metadata of a service error (nil for
// another error).
func metadataOf(err error) map[string]string {
	var se *service.Error
	if !errors.As(err, &se) {
		return nil
	}
	for _, d := range se.Proto().GetDetails() {
		var info errdetails.ErrorInfo
		if d.UnmarshalTo(&info) == nil {
			return info.GetMetadata()
		}
	}
	return nil
}
