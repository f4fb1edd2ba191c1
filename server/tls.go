package server

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/gamerules/gamerules/server/requestid"
)

// serverTLS is the TLS set-up of both ports: nil when TLS is off.
type serverTLS struct {
	// server is the listeners' configuration.
	server *tls.Config
	// gateway is the configuration of the REST gateway's own connection to
	// the gRPC port: it trusts exactly the server's own certificate (pinned,
	// so the certificate need not name the loopback address) and, with
	// mutual TLS, presents that certificate as its client certificate.
	gateway *tls.Config
}

// loadTLS reads the certificate, key and client CAs named by cfg.
func loadTLS(cfg Options) (*serverTLS, error) {
	if cfg.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
	}
	own := cert.Certificate[0]
	srv := &tls.Config{
		Certificates: []tls.Certificate{cert},
		MinVersion:   tls.VersionTLS12,
		NextProtos:   []string{"h2", "http/1.1"},
	}
	if cfg.TLSClientCA != "" {
		pem, err := os.ReadFile(cfg.TLSClientCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-client-ca %s: no PEM certificate in it", cfg.TLSClientCA)
		}
		// A client certificate is required and must chain to a client CA;
		// the gateway's hop presents the server's own certificate, which is
		// accepted as itself.
		srv.ClientAuth = tls.RequireAnyClientCert
		srv.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return errors.New("tls: a client certificate is required")
			}
			if bytes.Equal(raw[0], own) {
				return nil
			}
			leaf, err := x509.ParseCertificate(raw[0])
			if err != nil {
				return err
			}
			inter := x509.NewCertPool()
			for _, r := range raw[1:] {
				if c, err := x509.ParseCertificate(r); err == nil {
					inter.AddCert(c)
				}
			}
			_, err = leaf.Verify(x509.VerifyOptions{Roots: pool, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
			return err
		}
	}
	gw := &tls.Config{
		MinVersion: tls.VersionTLS12,
		// Verification is the pin below: the peer must be this server.
		InsecureSkipVerify: true, //nolint:gosec // replaced by VerifyPeerCertificate's exact match
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || !bytes.Equal(raw[0], own) {
				return errors.New("tls: the gRPC port did not present the server's own certificate")
			}
			return nil
		},
	}
	if cfg.TLSClientCA != "" {
		gw.Certificates = []tls.Certificate{cert}
	}
	return &serverTLS{server: srv, gateway: gw}, nil
}

// gatewayCredentials are the gateway hop's transport credentials: TLS
// pinned to the server's certificate when TLS is on, plain text otherwise.
func gatewayCredentials(t *serverTLS) grpc.DialOption {
	if t == nil {
		return grpc.WithTransportCredentials(insecure.NewCredentials())
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(t.gateway))
}

// productionServerOptions are the gRPC server options of TLS, the request
// id and tracing.
func productionServerOptions(t *serverTLS, tr *tracing) []grpc.ServerOption {
	opts := []grpc.ServerOption{grpc.ChainUnaryInterceptor(requestid.Unary)}
	if t != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(t.server)))
	}
	return append(opts, tr.serverOptions()...)
}

// serveHTTP serves the HTTP port, over TLS when it is on.
func serveHTTP(s *http.Server, lis net.Listener, t *serverTLS) error {
	if t == nil {
		return s.Serve(lis)
	}
	s.TLSConfig = t.server
	return s.ServeTLS(lis, "", "")
}
