package stacktest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"github.com/gamerules/gamerules/server"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// testPKI is a CA with a server certificate for 127.0.0.1 and a client
// certificate, written as PEM files in a temporary folder.
type testPKI struct {
	caFile, certFile, keyFile string
	pool                      *x509.CertPool
	client                    tls.Certificate
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey := newKey()
	caTpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gamerules test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTpl, caTpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	issue := func(serial int64, usage x509.ExtKeyUsage, ip bool) ([]byte, *ecdsa.PrivateKey) {
		k := newKey()
		tpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "gamerules test"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		if ip {
			tpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
		}
		der, err := x509.CreateCertificate(rand.Reader, tpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		return der, k
	}
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyDER := func(k *ecdsa.PrivateKey) []byte {
		b, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	srvDER, srvKey := issue(2, x509.ExtKeyUsageServerAuth, true)
	cliDER, cliKey := issue(3, x509.ExtKeyUsageClientAuth, false)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return testPKI{
		caFile:   write("ca.pem", "CERTIFICATE", caDER),
		certFile: write("server.pem", "CERTIFICATE", srvDER),
		keyFile:  write("server-key.pem", "EC PRIVATE KEY", keyDER(srvKey)),
		pool:     pool,
		client:   tls.Certificate{Certificate: [][]byte{cliDER}, PrivateKey: cliKey},
	}
}

// TestTLS: with --tls-cert and --tls-key both ports speak TLS only, and a
// REST call (which crosses the gateway's own TLS hop to the gRPC port)
// works; with --tls-client-ca a client without a certificate signed by that
// CA is refused on both ports, and one with it gets through.
func TestTLS(t *testing.T) {
	pki := newTestPKI(t)
	for _, mutual := range []bool{false, true} {
		a := startServerWith(t, func(c *server.Options) {
			c.TLSCert, c.TLSKey = pki.certFile, pki.keyFile
			if mutual {
				c.TLSClientCA = pki.caFile
			}
		})
		clientTLS := &tls.Config{RootCAs: pki.pool}
		if mutual {
			clientTLS.Certificates = []tls.Certificate{pki.client}
		}
		// gRPC over TLS.
		conn, err := grpc.NewClient(a.GRPC, grpc.WithTransportCredentials(credentials.NewTLS(clientTLS)))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if _, err := gamerulesv1grpc.NewGameRulesClient(conn).ListGames(ctx, &gamerulesv1.ListGamesRequest{}); err != nil {
			t.Errorf("mutual=%v: gRPC over TLS: %v", mutual, err)
		}
		cancel()
		conn.Close()
		// REST over TLS, through the gateway's TLS hop.
		hc := &http.Client{Transport: &http.Transport{TLSClientConfig: clientTLS}, Timeout: 10 * time.Second}
		resp, err := hc.Post("https://"+a.HTTP+"/v1/games/gravity_trap:applyMove", "application/json",
			strings.NewReader(`{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"notation":"8"},"includeLegalMoves":true}`))
		if err != nil {
			t.Fatalf("mutual=%v: REST over TLS: %v", mutual, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"next":{"moves":[`)) {
			t.Errorf("mutual=%v: REST over TLS = %d %s", mutual, resp.StatusCode, body)
		}
		// Plain text is refused on both ports.
		if resp, err := http.Get("http://" + a.HTTP + "/healthz"); err == nil {
			if resp.StatusCode == 200 {
				t.Errorf("mutual=%v: plain HTTP got 200 from the TLS port", mutual)
			}
			resp.Body.Close()
		}
		plain, _ := grpc.NewClient(a.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
		ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
		if _, err := gamerulesv1grpc.NewGameRulesClient(plain).ListGames(ctx, &gamerulesv1.ListGamesRequest{}); err == nil {
			t.Errorf("mutual=%v: plain-text gRPC was served", mutual)
		}
		cancel()
		plain.Close()
		if !mutual {
			continue
		}
		// Mutual TLS: no client certificate, no service.
		noCert := &tls.Config{RootCAs: pki.pool}
		nc, _ := grpc.NewClient(a.GRPC, grpc.WithTransportCredentials(credentials.NewTLS(noCert)))
		ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
		if _, err := gamerulesv1grpc.NewGameRulesClient(nc).ListGames(ctx, &gamerulesv1.ListGamesRequest{}); err == nil {
			t.Error("mutual TLS: gRPC without a client certificate was served")
		}
		cancel()
		nc.Close()
		hc = &http.Client{Transport: &http.Transport{TLSClientConfig: noCert}, Timeout: 5 * time.Second}
		if resp, err := hc.Get("https://" + a.HTTP + "/v1/games"); err == nil {
			resp.Body.Close()
			t.Errorf("mutual TLS: REST without a client certificate = %d; want the handshake refused", resp.StatusCode)
		}
	}
	// Half a key pair, or a client CA without TLS, is refused at start.
	for _, cfg := range []server.Options{{TLSCert: pki.certFile}, {TLSClientCA: pki.caFile}} {
		c := server.DefaultOptions()
		c.TLSCert, c.TLSKey, c.TLSClientCA = cfg.TLSCert, cfg.TLSKey, cfg.TLSClientCA
		if err := c.Validate(); err == nil {
			t.Errorf("check(%+v) = nil; want an error", cfg)
		}
	}
}

// TestCORS: without --cors-origins a preflight is 405 and no CORS header is
// sent; with it, a preflight from an allowed origin is answered and the
// answer to the real request names the origin, while another origin gets
// no CORS header.
func TestCORS(t *testing.T) {
	preflight := func(base, origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, "http://"+base+"/v1/games/backgammon:applyMove", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, x-request-id")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	off := startServer(t)
	if resp := preflight(off.HTTP, "https://play.example.com"); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no --cors-origins: preflight = %d %v; want 405 without CORS headers", resp.StatusCode, resp.Header)
	}
	on := startServerWith(t, func(c *server.Options) { c.CORSOrigins = []string{"https://play.example.com"} })
	resp := preflight(on.HTTP, "https://play.example.com")
	if resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != "https://play.example.com" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "x-request-id") {
		t.Errorf("allowed origin: preflight = %d %v", resp.StatusCode, resp.Header)
	}
	if resp := preflight(on.HTTP, "https://evil.example.net"); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin: preflight allowed it: %v", resp.Header)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+on.HTTP+"/v1/games/gravity_trap:score", strings.NewReader(`{"state":{"text":"ooooooooo.RooooooooB.. b"}}`))
	req.Header.Set("Origin", "https://play.example.com")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 200 || r.Header.Get("Access-Control-Allow-Origin") != "https://play.example.com" ||
		!strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "X-Request-Id") {
		t.Errorf("allowed origin: POST = %d %v", r.StatusCode, r.Header)
	}
	c := server.DefaultOptions()
	c.CORSOrigins = []string{"play.example.com"}
	if err := c.Validate(); err == nil {
		t.Error("--cors-origins without a scheme was accepted")
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRequestIDs: a client's X-Request-Id (REST) or x-request-id (gRPC) is
// returned and written on the request's log lines (the HTTP line and the
// gRPC line of the gateway's call); an absent or unusable one is replaced by
// a new 32-hex-digit id.
func TestRequestIDs(t *testing.T) {
	var logs syncBuffer
	a := startServerWith(t, func(c *server.Options) { c.LogLevel = "debug"; c.Logger = testLogger(&logs, "debug") })
	do := func(id string) string {
		req, _ := http.NewRequest(http.MethodPost, "http://"+a.HTTP+"/v1/games/gravity_trap:score", strings.NewReader(`{"state":{"text":"ooooooooo.RooooooooB.. b"}}`))
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("X-Request-Id")
	}
	if got := do("order-66.a_b:c"); got != "order-66.a_b:c" {
		t.Errorf("X-Request-Id echoed as %q", got)
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, bad := range []string{"", "has space", strings.Repeat("x", 129), "semi;colon"} {
		if got := do(bad); !hex32.MatchString(got) {
			t.Errorf("X-Request-Id %q: answer has %q; want a new 32-hex-digit id", bad, got)
		}
	}
	conn := dial(t, a.GRPC)
	var header metadata.MD
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-request-id", "grpc-call-7")
	if _, err := gamerulesv1grpc.NewGameRulesClient(conn).ListGames(ctx, &gamerulesv1.ListGamesRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	if got := header.Get("x-request-id"); len(got) != 1 || got[0] != "grpc-call-7" {
		t.Errorf("gRPC x-request-id header = %v", got)
	}
	header = nil
	if _, err := gamerulesv1grpc.NewGameRulesClient(conn).ListGames(context.Background(), &gamerulesv1.ListGamesRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	if got := header.Get("x-request-id"); len(got) != 1 || !hex32.MatchString(got[0]) {
		t.Errorf("gRPC call without an id: header %v; want a new id", got)
	}
	// Every log line of the REST request carries its id: the HTTP line and
	// the gRPC line of the gateway's call.
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := logs.String()
		var n, withDuration int
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, `"request_id":"order-66.a_b:c"`) {
				n++
				if regexp.MustCompile(`"duration":[0-9.e-]+[,}]`).MatchString(line) {
					withDuration++
				}
			}
		}
		if n >= 2 && withDuration == n && strings.Contains(out, `"request_id":"grpc-call-7"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log lines with the request ids: %d (want 2, the HTTP and the gRPC line, each with a numeric duration in seconds: %d); log:\n%s", n, withDuration, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTracing: with a tracer provider (here an in-memory exporter, as the
// OTLP endpoint would give), a REST call makes an HTTP server span and,
// through the gateway, a gRPC client and server span, all in one trace.
func TestTracing(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	a := startServerWith(t, func(c *server.Options) { c.TracerProvider = tp })
	if code, body := post(t, a.HTTP, "/v1/games/gravity_trap:legalMoves", `{"state":{"text":"RoooBooooooooooooooooo r"}}`); code != 200 {
		t.Fatalf("legalMoves = %d %v", code, body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		spans := exp.GetSpans()
		names := map[string]sdktrace.ReadOnlySpan{}
		for _, s := range spans.Snapshots() {
			names[s.Name()] = s
		}
		httpSpan, okHTTP := names["POST /v1/games/{game}:legalMoves"]
		grpcSpan, okGRPC := names["gamerules.v1.GameRules/LegalMoves"]
		if okHTTP && okGRPC {
			if httpSpan.SpanContext().TraceID() != grpcSpan.SpanContext().TraceID() {
				t.Errorf("the HTTP and gRPC spans are in different traces")
			}
			break
		}
		if time.Now().After(deadline) {
			var got []string
			for n := range names {
				got = append(got, n)
			}
			t.Fatalf("spans %v; want the HTTP and the gRPC span of the call", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDocsPage: /docs is an HTML page that renders /openapi.json with the
// embedded RapiDoc script, loads nothing from another origin (no URL with a
// scheme in the page, and a same-origin Content-Security-Policy), and the
// script is served gzipped or plain.
func TestDocsPage(t *testing.T) {
	a := startServer(t)
	resp, err := http.Get("http://" + a.HTTP + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!bytes.Contains(page, []byte(`spec-url="/openapi.json"`)) || !bytes.Contains(page, []byte(`src="/docs/rapidoc-min.js"`)) {
		t.Fatalf("/docs = %d %s", resp.StatusCode, page)
	}
	if regexp.MustCompile(`https?://`).Match(page) {
		t.Errorf("/docs names another origin: %s", page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("/docs Content-Security-Policy %q", csp)
	}
	// Go's client asks for gzip and decompresses transparently; ask both ways.
	for _, enc := range []string{"gzip", "identity"} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+a.HTTP+"/docs/rapidoc-min.js", nil)
		req.Header.Set("Accept-Encoding", enc)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if enc == "gzip" {
			if resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("gzip: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		}
		if resp.StatusCode != 200 || len(body) < 500_000 || !bytes.Contains(body, []byte("rapi-doc")) {
			t.Errorf("%s: /docs/rapidoc-min.js = %d, %d bytes", enc, resp.StatusCode, len(body))
		}
	}
}

// TestFavicon: /favicon.ico, which browsers ask for on every page (/docs
// and the playground), is the embedded 16×16 icon, not a 404.
func TestFavicon(t *testing.T) {
	a := startServer(t)
	resp, err := http.Get("http://" + a.HTTP + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/x-icon" {
		t.Fatalf("/favicon.ico = %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// ICONDIR: reserved 0, type 1 (icon), one image; its entry: 16×16, 32 bits.
	if len(body) < 22 || !bytes.Equal(body[:6], []byte{0, 0, 1, 0, 1, 0}) || body[6] != 16 || body[7] != 16 || body[12] != 32 {
		t.Errorf("/favicon.ico is not a 16×16 32-bit icon: % x", body[:min(len(body), 22)])
	}
}
