#!/bin/sh
# Generates the Python modules of Tributary's wire contract (tributary/v1/*_pb2.py and
# *_pb2_grpc.py) from protocol/src/main/proto into DIR (default: build/stubs beside this script).
#
# It uses Debian's protoc (protobuf-compiler) and gRPC plugin (protobuf-compiler-grpc): they are
# the releases the Debian runtimes are built from (protoc 3.21.12 for python3-protobuf 3.21.12,
# the plugin 1.51.1 for python3-grpcio 1.51.1), and generated code should match its runtime.
# Debian's python3-grpc-tools (1.14.1) is not used: its bundled protoc 3.5.1 writes modules that
# build their descriptors by hand, an API protobuf 4.x keeps only for old code: Debian's C++
# backend still accepts them, the pure-Python one warns that it is going away, and the upb backend
# (pip's default since protobuf 4.21) refuses them ("Descriptors cannot be created directly").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
protos=$here/../../protocol/src/main/proto
out=${1:-$here/build/stubs}
if ! command -v protoc >/dev/null || ! plugin=$(command -v grpc_python_plugin); then
    echo "generate_stubs: protoc or grpc_python_plugin is missing (Debian: apt-get install protobuf-compiler protobuf-compiler-grpc)" >&2
    exit 1
fi
mkdir -p "$out"
protoc -I "$protos" --python_out="$out" --grpc_out="$out" --plugin=protoc-gen-grpc="$plugin" \
    "$protos"/tributary/v1/*.proto
