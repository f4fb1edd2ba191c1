// Package deploy holds what running gamerules as a fleet needs besides the
// binary: the Kubernetes manifests (k8s/), an nginx front (nginx/), and
// the gRPC service config every client should dial with
// (grpc-service-config.json, ServiceConfig here for Go clients), and
// MergePlayouts, which sums the answers of a Playout fanned out over the
// fleet by game_offset.
//
// The service config, and why each part is safe:
//
//   - loadBalancingConfig round_robin: a channel keeps a connection to every
//     address its resolver lists (dns:/// of the headless Service in
//     Kubernetes: one A record per ready pod) and spreads calls over them,
//     instead of pick_first's one connection for every call.
//   - healthCheckConfig: the channel watches each replica's gRPC health
//     (grpc.health.v1 Watch for gamerules.v1.GameRules) and picks only the
//     SERVING ones, so a replica that starts its drain (SIGTERM: NOT_SERVING
//     at once) gets no new call even before its GOAWAY. Go clients must
//     import google.golang.org/grpc/health for it; grpc-js ignores it.
//     Leave it out when dialling a proxy (nginx, an Ingress): the channel
//     would watch whichever replica the proxy sent the Watch to, and hold
//     every call while that one drains.
//   - retryPolicy for every method of gamerules.v1.GameRules on UNAVAILABLE
//     (a replica that went away: connection refused or reset, the shutdown's
//     GOAWAY race) and RESOURCE_EXHAUSTED (a replica's admission gate full:
//     "retry in a moment"; round_robin sends the retry to the next replica):
//     every RPC of the service is a pure function of its request (no state
//     is kept, nothing is written), so a call run twice is harmless. Not
//     retried: INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION,
//     UNIMPLEMENTED and INTERNAL, which the same request gets again anywhere
//     (safe, but useless); DEADLINE_EXCEEDED, which gRPC never retries (the
//     deadline covers every attempt). RESOURCE_EXHAUSTED for a message over
//     --max-recv-bytes is deterministic too: it costs at most four more
//     refusals, and retryThrottling bounds that.
//   - waitForReady: a call made while no replica is READY (all restarting,
//     or the channel still connecting) waits for one, within its deadline,
//     instead of failing at once with UNAVAILABLE. Give every call a
//     deadline.
//   - retryThrottling maxTokens 100, tokenRatio 0.1: retries stop while more
//     than half of the last ~100 calls failed (a fleet-wide outage), so
//     retries cannot multiply the load of a fleet that is down; one replica's
//     crash fails at most its calls in flight, well under 50.
//
// Hedging is not used: it would be safe, but doubles the CPU of every slow
// call.
package deploy

import _ "embed"

// ServiceConfig is grpc-service-config.json, for
// grpc.WithDefaultServiceConfig.
//
//go:embed grpc-service-config.json
var ServiceConfig string
