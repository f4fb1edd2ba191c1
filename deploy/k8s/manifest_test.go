// Package k8s holds the Kubernetes manifests (kubectl apply -k deploy/k8s).
// Its test reads every manifest strictly into the Kubernetes API types (an
// unknown or misspelled field fails) and checks the settings a "restricted"
// Pod Security level and a real platform need; no cluster is needed.
package k8s

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// imageUID is the numeric user of the image (Dockerfile: USER 65532:65532).
const imageUID = 65532

// kustomization is the part of kustomization.yaml this repo uses.
type kustomization struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Labels     []struct {
		Pairs map[string]string `json:"pairs"`
	} `json:"labels"`
	Resources []string `json:"resources"`
}

func readStrict(t *testing.T, name string, into any) {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(raw, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestManifests(t *testing.T) {
	var k kustomization
	readStrict(t, "kustomization.yaml", &k)
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f != "kustomization.yaml" && !slices.Contains(k.Resources, f) {
			t.Errorf("%s is not listed in kustomization.yaml: kubectl apply -k would leave it out", f)
		}
	}
	var dep *appsv1.Deployment
	var hpa *autoscalingv2.HorizontalPodAutoscaler
	var services []*corev1.Service
	kinds := map[string]bool{}
	for _, f := range k.Resources {
		var meta metav1.TypeMeta
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("kustomization.yaml lists %s: %v", f, err)
		}
		if err := yaml.Unmarshal(raw, &meta); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		kinds[meta.Kind] = true
		var obj struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := yaml.Unmarshal(raw, &obj); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := obj.Metadata.Labels["app"]; got != "gamerules" {
			t.Errorf("%s: %s has label app=%q; every manifest carries app=gamerules", f, meta.Kind, got)
		}
		switch meta.APIVersion + " " + meta.Kind {
		case "apps/v1 Deployment":
			dep = &appsv1.Deployment{}
			readStrict(t, f, dep)
		case "v1 Service":
			svc := &corev1.Service{}
			readStrict(t, f, svc)
			services = append(services, svc)
		case "autoscaling/v2 HorizontalPodAutoscaler":
			hpa = &autoscalingv2.HorizontalPodAutoscaler{}
			readStrict(t, f, hpa)
		case "policy/v1 PodDisruptionBudget":
			var pdb policyv1.PodDisruptionBudget
			readStrict(t, f, &pdb)
			if pdb.Spec.MinAvailable == nil && pdb.Spec.MaxUnavailable == nil {
				t.Errorf("%s: the PodDisruptionBudget allows every pod to go", f)
			}
		default:
			t.Errorf("%s: %s %s has no check here; add one", f, meta.APIVersion, meta.Kind)
		}
	}
	for _, kind := range []string{"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"} {
		if !kinds[kind] {
			t.Errorf("no %s among the manifests", kind)
		}
	}
	if dep == nil {
		t.Fatal("no Deployment")
	}
	checkPod(t, dep.Spec.Template)
	checkServices(t, services, dep)
	if hpa == nil {
		t.Fatal("no HorizontalPodAutoscaler")
	}
	if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != dep.Name {
		t.Errorf("the HPA scales %s %s; want Deployment %s", ref.Kind, ref.Name, dep.Name)
	}
	if dep.Spec.Replicas != nil {
		t.Errorf("the Deployment sets replicas: %d while the HPA owns the count: every re-apply would reset it", *dep.Spec.Replicas)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 {
		t.Error("the HPA's minReplicas must be at least 2 (the PodDisruptionBudget keeps 1 serving while a node drains)")
	}
}

// checkServices: one ClusterIP Service with both ports (REST and ingress),
// and one headless Service with the gRPC port (clients that dial
// dns:///gamerules-headless:50051 with round_robin get one address per
// pod), both selecting the Deployment's pods.
func checkServices(t *testing.T, services []*corev1.Service, dep *appsv1.Deployment) {
	var clusterIP, headless *corev1.Service
	for _, s := range services {
		for k, v := range s.Spec.Selector {
			if dep.Spec.Template.Labels[k] != v {
				t.Errorf("Service %s selects %s=%s, which the Deployment's pods do not carry", s.Name, k, v)
			}
		}
		if len(s.Spec.Selector) == 0 {
			t.Errorf("Service %s selects nothing", s.Name)
		}
		switch {
		case s.Spec.ClusterIP == corev1.ClusterIPNone:
			headless = s
		case s.Spec.Type == "" || s.Spec.Type == corev1.ServiceTypeClusterIP:
			clusterIP = s
		}
	}
	port := func(s *corev1.Service, name string, want int32) {
		for _, p := range s.Spec.Ports {
			if p.Name == name {
				if p.Port != want || p.TargetPort.String() != name {
					t.Errorf("Service %s port %s: %d -> %s; want %d -> %s", s.Name, name, p.Port, p.TargetPort.String(), want, name)
				}
				return
			}
		}
		t.Errorf("Service %s has no %s port", s.Name, name)
	}
	if clusterIP == nil {
		t.Error("no ClusterIP Service (REST, ingress)")
	} else {
		port(clusterIP, "grpc", 50051)
		port(clusterIP, "http", 8080)
	}
	if headless == nil {
		t.Fatal("no headless Service (clusterIP: None) for gRPC clients that balance themselves")
	}
	if headless.Name != "gamerules-headless" {
		t.Errorf("the headless Service is %s; the README and examples dial dns:///gamerules-headless:50051", headless.Name)
	}
	port(headless, "grpc", 50051)
	if p := headless.Spec.Ports; len(p) == 1 && (p[0].AppProtocol == nil || *p[0].AppProtocol != "grpc") {
		t.Errorf("the headless Service's grpc port has appProtocol %v; want grpc", p[0].AppProtocol)
	}
}

// checkPod checks the pod template against Pod Security "restricted" and
// the platform settings of issue 14.
func checkPod(t *testing.T, tpl corev1.PodTemplateSpec) {
	spec := tpl.Spec
	if a := tpl.Annotations; a["prometheus.io/scrape"] != "true" || a["prometheus.io/port"] != "8080" || a["prometheus.io/path"] != "/metrics" {
		t.Errorf("pod annotations %v: want Prometheus scrape of :8080/metrics", a)
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Error("automountServiceAccountToken must be false: the server calls no Kubernetes API")
	}
	psc := spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser != imageUID ||
		psc.RunAsGroup == nil || *psc.RunAsGroup != imageUID {
		t.Errorf("pod securityContext %+v: want runAsNonRoot with runAsUser and runAsGroup %d (a name is refused by the kubelet)", psc, imageUID)
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("pod seccompProfile must be RuntimeDefault")
	}
	if len(spec.Containers) == 0 {
		t.Fatal("no containers")
	}
	for _, c := range spec.Containers {
		sc := c.SecurityContext
		if sc == nil {
			t.Fatalf("container %s: no securityContext", c.Name)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("container %s: allowPrivilegeEscalation must be false", c.Name)
		}
		if sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) > 0 {
			t.Errorf("container %s: capabilities %+v; want drop [ALL], add none", c.Name, sc.Capabilities)
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("container %s: readOnlyRootFilesystem must be true", c.Name)
		}
		if sc.RunAsUser != nil && *sc.RunAsUser != imageUID {
			t.Errorf("container %s: runAsUser %d; the image's user is %d", c.Name, *sc.RunAsUser, imageUID)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("container %s: resources %+v; want cpu and memory requests and a memory limit", c.Name, c.Resources)
		}
		if c.ReadinessProbe == nil || c.LivenessProbe == nil {
			t.Errorf("container %s: want readiness and liveness probes", c.Name)
		}
	}
}

// TestDockerignore: what the image build does not need stays out of its
// context (the Node example's node_modules, about 14 MB; the Python
// example's generated stubs; the build outputs).
func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, want := range []string{".git/", ".bin/", "examples/node/node_modules/", "examples/python/gen/", "examples/openapi-ts/node_modules/"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".dockerignore: want a line %q", want)
		}
	}
}

// TestDockerfileUser: the image runs as the numeric user the manifests name.
func TestDockerfileUser(t *testing.T) {
	raw, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "\nUSER 65532:65532\n") {
		t.Error("Dockerfile: want USER 65532:65532 (numeric, as runAsUser in deployment.yaml)")
	}
}
