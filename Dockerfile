# Multi-stage build of gamerulesd: a static binary on a distroless base,
# running as the numeric non-root user 65532 (distroless "nonroot"; a number, so
# that Kubernetes can check runAsNonRoot). gRPC on 50051, HTTP (REST, probes,
# metrics) on 8080.
#   docker build -t gamerules/gamerulesd:dev --build-arg VERSION=dev .
#   docker run --rm -p 50051:50051 -p 8080:8080 gamerules/gamerulesd:dev
FROM golang:1.26 AS build
# Build with Go 1.27.3, go.mod's toolchain line: the image's Go 1.26 runs with
# GOTOOLCHAIN=local, which ignores that line, so the go command is told to
# fetch it (once, in the module download layer below).
ENV GOTOOLCHAIN=go1.27.3
# The image builds the server alone: not the workspace (go.work, which adds
# the WebAssembly command's module, wasm/).
ENV GOWORK=off
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/gamerulesd ./cmd/gamerulesd

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gamerulesd /gamerulesd
USER 65532:65532
EXPOSE 50051 8080
ENTRYPOINT ["/gamerulesd"]
