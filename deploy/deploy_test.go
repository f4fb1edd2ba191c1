package deploy

import (
	"encoding/json"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // healthCheckConfig

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// TestServiceConfig: grpc-go accepts the service config (NewClient parses
// and validates it), and it balances round robin, health-checks the
// service, and retries every method of the service on UNAVAILABLE.
func TestServiceConfig(t *testing.T) {
	conn, err := grpc.NewClient("passthrough:///127.0.0.1:1", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(ServiceConfig))
	if err != nil {
		t.Fatalf("grpc-go refuses the service config: %v", err)
	}
	conn.Close()
	var sc struct {
		LoadBalancingConfig []map[string]any
		HealthCheckConfig   struct{ ServiceName string }
		MethodConfig        []struct {
			Name []struct {
				Service, Method string
			}
			WaitForReady bool
			RetryPolicy  struct {
				MaxAttempts          int
				RetryableStatusCodes []string
			}
		}
		RetryThrottling *struct{ MaxTokens float64 }
	}
	if err := json.Unmarshal([]byte(ServiceConfig), &sc); err != nil {
		t.Fatal(err)
	}
	service := gamerulesv1grpc.GameRules_ServiceDesc.ServiceName
	if len(sc.LoadBalancingConfig) != 1 || sc.LoadBalancingConfig[0]["round_robin"] == nil {
		t.Errorf("loadBalancingConfig %v; want round_robin alone", sc.LoadBalancingConfig)
	}
	if sc.HealthCheckConfig.ServiceName != service {
		t.Errorf("healthCheckConfig serviceName %q; want %q (the name the server's health reports)", sc.HealthCheckConfig.ServiceName, service)
	}
	whole := false
	for _, mc := range sc.MethodConfig {
		for _, n := range mc.Name {
			if n.Service == service && n.Method == "" {
				whole = true
				if !slices.Contains(mc.RetryPolicy.RetryableStatusCodes, "UNAVAILABLE") || mc.RetryPolicy.MaxAttempts < 2 {
					t.Errorf("the service's retryPolicy %+v; want UNAVAILABLE retried", mc.RetryPolicy)
				}
				if !mc.WaitForReady {
					t.Error("the service's methods should waitForReady")
				}
			}
		}
	}
	if !whole {
		t.Errorf("no methodConfig names the whole service %s (every method)", service)
	}
	if sc.RetryThrottling == nil {
		t.Error("no retryThrottling: retries could multiply the load of a fleet that is down")
	}
}
