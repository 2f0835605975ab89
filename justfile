# Presage tasks. `just --list` shows them.

# Build the presage binary into ./bin.
build:
    go build -o bin/presage ./cmd/presage

# Run every test (golden tests read ../shared when it is there).
test:
    go test ./...

# Run the demo: generate a trace, predict it, write the HTML report.
demo:
    go run ./cmd/presage demo

# Benchmarks: ingest, load, prediction speed.
bench:
    go test -run '^$' -bench . -benchmem ./ingest/... ./sim/... ./internal/stage ./schema/store ./orders/...

# Fuzz each parser for FUZZTIME (default 5m) each.
fuzz fuzztime="5m":
    go test -run '^$' -fuzz FuzzReader -fuzztime {{fuzztime}} ./ingest/ptr
    go test -run '^$' -fuzz FuzzParse -fuzztime {{fuzztime}} ./ingest/machinefile
    go test -run '^$' -fuzz FuzzRead -fuzztime {{fuzztime}} ./ingest/sts
    go test -run '^$' -fuzz FuzzReader -fuzztime {{fuzztime}} ./orders/ordertrace
    go test -run '^$' -fuzz FuzzReader -fuzztime {{fuzztime}} ./orders/calibration
    go test -run '^$' -fuzz FuzzRead -fuzztime {{fuzztime}} ./orders/measured
    go test -run '^$' -fuzz 'FuzzAnalyze$' -fuzztime {{fuzztime}} ./sim/workspan
    go test -run '^$' -fuzz FuzzChunkDecoder -fuzztime {{fuzztime}} ./schema/store
    go test -run '^$' -fuzz FuzzCheckReadOnly -fuzztime {{fuzztime}} ./schema/store

# gofmt, go vet, staticcheck and unreachable code.
lint:
    test -z "$(gofmt -l .)"
    go vet ./...
    go run honnef.co/go/tools/cmd/staticcheck@latest ./...
    go run golang.org/x/tools/cmd/deadcode@latest -test ./...
