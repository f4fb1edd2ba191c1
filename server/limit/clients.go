package limit

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// Clients is HTTP middleware that names each request's client for the
// heavy lane's shares (WithClient): the address of its connection's peer,
// without the port (one address is one client, however many connections
// it opens); or, when that peer is in trusted (the reverse proxies in
// front of the server, such as nginx), the rightmost address of the
// X-Forwarded-For header that is not in trusted, the header read from the
// right, as each proxy appends the address it saw. X-Forwarded-For is
// ignored from any other peer, so that a client cannot name itself.
// Without trusted proxies, everyone behind a proxy is one client.
func Clients(next http.Handler, trusted []netip.Prefix) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, s := scopeOf(r, func(s *requestScope) bool { return s.client != nil })
		s.client = ClientAddr(r, trusted)
		next.ServeHTTP(w, r)
	})
}

// ClientAddr is the client of r as Clients names it.
func ClientAddr(r *http.Request, trusted []netip.Prefix) string {
	return forwardedClient(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), trusted)
}

// forwardedClient is the client of a request from remote ("host:port")
// with X-Forwarded-For values hops: remote's address, or, when it is in
// trusted, the rightmost address of hops not in trusted.
func forwardedClient(remote string, hops []string, trusted []netip.Prefix) string {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return remote
	}
	client := ap.Addr().Unmap()
	if !inPrefixes(trusted, client) {
		return client.String()
	}
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(parts[j]))
			if err != nil {
				return client.String() // a malformed hop: the last one trusted
			}
			client = a.Unmap()
			if !inPrefixes(trusted, client) {
				return client.String()
			}
		}
	}
	return client.String()
}

func inPrefixes(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParsePrefixes reads a comma-separated list of addresses and CIDR blocks
// ("10.0.0.0/8, 192.168.1.7, ::1"), a lone address as its own block.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR block (10.0.0.0/8)", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// ClientOf is the client WithClient named in ctx, if any.
func ClientOf(ctx context.Context) (string, bool) {
	c, ok := ctx.Value(clientKey{}).(string)
	return c, ok
}
