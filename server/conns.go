package server

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/stats"

	"github.com/gamerules/gamerules/server/limit"
)

// connLimits are the connection limits of both ports (limit.Listener) and
// their metrics.
type connLimits struct {
	grpc, http *limit.Listener
}

// newConnLimits wraps the two listeners (opened by New, or given by the
// host program) in their connection limits, registering their metrics with
// a's (unregistered by a.Close).
func newConnLimits(opts Options, grpcLis, httpLis net.Listener, a *API) (*connLimits, error) {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gamerules_connections_refused_total",
		Help: "Connections closed as soon as accepted because the port had --max-connections open, by port (grpc, http).",
	}, []string{"port"})
	c := &connLimits{
		grpc: limit.NewListener(grpcLis, limit.ListenerOptions{
			Max: opts.MaxConnections, FirstUseTimeout: opts.GRPCFirstCallTimeout, Refused: refused.WithLabelValues("grpc"),
		}),
		// No FirstUseTimeout: http.Server's ReadHeaderTimeout closes a
		// connection that sends no request.
		http: limit.NewListener(httpLis, limit.ListenerOptions{
			Max: opts.MaxConnections, Refused: refused.WithLabelValues("http"),
		}),
	}
	err := a.register(refused,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "gamerules_connections_open", Help: "Connections open now, by port (grpc, http).",
			ConstLabels: prometheus.Labels{"port": "grpc"},
		}, func() float64 { return float64(c.grpc.Open()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "gamerules_connections_open", Help: "Connections open now, by port (grpc, http).",
			ConstLabels: prometheus.Labels{"port": "http"},
		}, func() float64 { return float64(c.http.Open()) }),
	)
	return c, err
}

// httpConnState marks an HTTP connection used once a request arrives.
func (c *connLimits) httpConnState(conn net.Conn, st http.ConnState) {
	if st == http.StateActive {
		c.http.Used(conn.RemoteAddr())
	}
}

// logRefusals logs, at most once every 10 s until ctx is done, how many
// connections each port refused since the last line, so that a flood of
// connections shows in the logs without one line per connection.
func (c *connLimits) logRefusals(ctx context.Context, logger *zap.Logger, maxConns int) {
	var lastG, lastH int64
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			g, h := c.grpc.Refused(), c.http.Refused()
			if g > lastG || h > lastH {
				logger.Warn("connections refused at --max-connections",
					zap.Int("max_connections", maxConns), zap.Int64("grpc_refused", g-lastG), zap.Int64("http_refused", h-lastH),
					zap.Int("grpc_open", c.grpc.Open()), zap.Int("http_open", c.http.Open()))
			}
			lastG, lastH = g, h
		}
	}
}

// connUse is a gRPC stats handler that marks a connection used when a call
// begins on it, which stops its --grpc-first-call-timeout.
type connUse struct{ l *limit.Listener }

func (u connUse) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }

func (u connUse) HandleRPC(ctx context.Context, rs stats.RPCStats) {
	if _, ok := rs.(*stats.Begin); !ok {
		return
	}
	if p, ok := peer.FromContext(ctx); ok {
		u.l.Used(p.Addr)
	}
}

func (u connUse) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }
func (u connUse) HandleConn(context.Context, stats.ConnStats)                       {}

var _ stats.Handler = connUse{}
