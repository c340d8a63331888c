#!/usr/bin/env python3
"""Prints the changes captured for a Tributary table, one JSON object per LCR per line.

Reads the table's CDC log from its beginning (ChangeStreamService.ReadChanges) and, with
--follow, goes on with the changes made from then on (ChangeStreamService.Subscribe). Each
line is the LCR JSON form of docs/REFERENCE.md ("LCRs"): the same fields, in the same order, as
the Java SDK's ChangeRecord.toJson(), with values as its "JSON forms" section writes them.

    ./generate_stubs.sh build/stubs
    PYTHONPATH=build/stubs python3 tail_changes.py --connect 127.0.0.1:9160 --table ks.t --follow
"""

import argparse
import datetime
import json
import math
import signal
import struct
import sys

try:
    import grpc
    from tributary.v1 import changes_pb2, changes_pb2_grpc
except ImportError as e:
    sys.exit(f"tail_changes: {e}. It needs grpcio and protobuf (Debian: apt-get install python3-grpcio "
             "python3-protobuf) and the stubs generate_stubs.sh writes, on PYTHONPATH.")

EPOCH = datetime.datetime(1970, 1, 1)


def lcr_json(lcr):
    """An Lcr message as a dict, its keys in the order of the LCR JSON form."""
    row = lcr.lcr == "ROW"
    out = {"lcr": lcr.lcr}
    # proto3 strings cannot be null: the JSON form writes an absent attribute as null
    for name in ("source_database_name", "command_type", "object_owner", "object_name"):
        out[name] = getattr(lcr, name) or None
    if not row:
        for name in ("object_type", "ddl_text", "logon_user", "current_schema", "base_table_owner",
                     "base_table_name"):
            out[name] = getattr(lcr, name) or None
    out["tag"] = "0x" + lcr.tag.hex() if lcr.has_tag else None
    out["transaction_id"] = lcr.transaction_id or None
    out["scn"] = lcr.scn
    out["commit_scn"] = lcr.commit_scn
    if row:
        # has_*_values tells "no old values" (an INSERT) apart from "no columns"
        out["old_values"] = named_values(lcr.old_values) if lcr.has_old_values else None
        out["new_values"] = named_values(lcr.new_values) if lcr.has_new_values else None
    has_position = lcr.HasField("position")
    out["stream_id"] = "0x" + lcr.position.stream_id.hex() if has_position else None
    out["time"] = lcr.position.time if has_position else None
    out["batch_seq_no"] = lcr.position.batch_seq_no if has_position else None
    out["end_of_batch"] = lcr.end_of_batch
    out["extra"] = named_values(lcr.extra)
    return out


def named_values(values):
    return {v.name: value_json(v.value) for v in values}


def value_json(v):
    """A Value as plain JSON data. The oneof says how the column's CQL type travels."""
    kind = v.WhichOneof("kind")
    if kind is None:
        return None  # an unset oneof is NULL
    x = getattr(v, kind)
    if kind in ("text", "integer", "boolean", "uuid", "inet"):
        return x
    if kind == "decimal":
        return x  # varint and decimal stay strings: a JSON number would lose digits
    if kind == "float32":
        return float_json(shortest_float32(x))
    if kind == "float64":
        return float_json(x)
    if kind == "timestamp_millis":
        return since_epoch(datetime.timedelta(milliseconds=x), x,
                           lambda t: t.isoformat(timespec="milliseconds") + "Z")
    if kind == "date_days":
        return since_epoch(datetime.timedelta(days=x), x, lambda t: t.date().isoformat())
    if kind == "time_nanos":
        seconds, nanos = divmod(x, 1_000_000_000)
        return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{nanos:09d}"
    if kind == "duration":
        return duration_literal(x)
    if kind == "blob":
        return "0x" + x.hex()
    if kind == "collection":  # list or set
        return [value_json(e) for e in x.elements]
    if kind == "map":
        return {key_json(e.key): value_json(e.value) for e in x.entries}
    if kind == "udt":
        return named_values(x.fields)
    raise ValueError(f"a Value of unknown kind {kind}: regenerate the stubs and update value_json")


def key_json(key):
    """JSON object keys are strings: a key written as a string is that string, any other is
    its JSON text (1, true, [1,2])."""
    k = value_json(key)
    return k if isinstance(k, str) else json.dumps(k, separators=(",", ":"))


def float_json(x):
    # JSON has no NaN or Infinity (json.dumps would write invalid JSON): they become strings
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def shortest_float32(x):
    # A float column arrives widened to a double (0.1f as 0.10000000149011612): take the
    # shortest decimal that reads back as the same float32, as Java's Float.toString does.
    for digits in range(1, 10):
        shorter = float(f"{x:.{digits}g}")
        if struct.unpack("f", struct.pack("f", shorter))[0] == x:
            return shorter
    return x  # NaN and the infinities


def since_epoch(delta, raw, fmt):
    try:
        return fmt(EPOCH + delta)
    except OverflowError:
        return raw  # CQL allows instants outside Python's years 1-9999: give the number


def duration_literal(d):
    """The CQL duration literal: 1y2mo3d4h5m6s7ms8us9ns, -3d, 0s."""
    if d.months == 0 and d.days == 0 and d.nanos == 0:
        return "0s"
    sign = "-" if d.months < 0 or d.days < 0 or d.nanos < 0 else ""  # all parts share one sign
    months, days, nanos = abs(d.months), abs(d.days), abs(d.nanos)
    parts = [(months // 12, "y"), (months % 12, "mo"), (days, "d")]
    for unit, size in (("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000),
                       ("ms", 1_000_000), ("us", 1_000), ("ns", 1)):
        parts.append((nanos // size, unit))
        nanos %= size
    return sign + "".join(f"{n}{unit}" for n, unit in parts if n)


def position_key(lcr):
    p = lcr.position
    return p.stream_id, p.time, p.batch_seq_no


def tail(stub, table, follow, limit):
    """Yields the table's LCRs: the log from its beginning, then (follow) the live ones."""
    live = None
    if follow:
        # Subscribe before reading, so that a change made while the log is read is not lost
        # between the two; the LCRs that both give are printed once (by their log position).
        live = stub.Subscribe(changes_pb2.SubscribeRequest(table=table))
    try:
        seen = set()
        for lcr in stub.ReadChanges(changes_pb2.ReadChangesRequest(table=table, limit=limit)):
            if follow:
                seen.add(position_key(lcr))
            yield lcr
        if live is None:
            return
        sys.stdout.flush()  # the log is printed: show it before waiting for live changes
        for batch in live:
            for lcr in batch.lcrs:
                if position_key(lcr) not in seen:
                    yield lcr
            sys.stdout.flush()
    finally:
        if live is not None:
            live.cancel()  # ends the subscription on the node too


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connect", default="127.0.0.1:9160", metavar="HOST:PORT",
                        help="a node's gRPC endpoint (default %(default)s)")
    parser.add_argument("--table", required=True, metavar="KS.T", help="a table with cdc enabled")
    parser.add_argument("--follow", action="store_true",
                        help="after the end of the log, print changes as they are made, until interrupted")
    parser.add_argument("--limit", type=int, default=0, metavar="N", help="stop after N LCRs (default: no limit)")
    args = parser.parse_args()
    # `| head` closing the pipe ends the script quietly instead of with a BrokenPipeError
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)

    # One LcrBatch can hold 256 LCRs of large values: allow what the Java SDK allows (64 MiB)
    # rather than gRPC's 4 MiB default.
    options = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]
    with grpc.insecure_channel(args.connect, options=options) as channel:
        stub = changes_pb2_grpc.ChangeStreamServiceStub(channel)
        printed = 0
        try:
            for lcr in tail(stub, args.table, args.follow, args.limit):
                print(json.dumps(lcr_json(lcr), ensure_ascii=False, separators=(",", ":")))
                printed += 1
                if printed == args.limit:
                    break
        except grpc.RpcError as e:
            # the node's stable reason code (NOT_FOUND, INVALID_REQUEST, ...) is in a trailer
            trailers = dict(e.trailing_metadata() or ())
            code = trailers.get("tributary-error-code", e.code().name)
            sys.exit(f"tail_changes: {code}: {e.details()}")
        except KeyboardInterrupt:
            pass
    sys.stdout.flush()


if __name__ == "__main__":
    main()
