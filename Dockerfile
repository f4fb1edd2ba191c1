# Multi-stage build of gamerulesd: a static binary on a distroless base,
# running as a non-root user. gRPC on 50051, HTTP (REST, probes, metrics) on 8080.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/gamerulesd ./cmd/gamerulesd

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gamerulesd /gamerulesd
USER nonroot:nonroot
EXPOSE 50051 8080
ENTRYPOINT ["/gamerulesd"]
