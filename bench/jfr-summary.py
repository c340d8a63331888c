#!/usr/bin/env python3
"""Where the CPU goes in a JFR recording of the bench, by layer and by thread.

    jfr print --events jdk.ExecutionSample --stack-depth 80 bench.jfr > samples.txt
    bench/jfr-summary.py samples.txt

A sample counts for the layer of its innermost frame that belongs to one (RocksDB, gRPC/Netty/
protobuf, Tributary's commit, capture, CDC log, SDK, bench), else for the first such frame below
it. Native time (RocksDB's C++) is not sampled by jdk.ExecutionSample.
"""
import collections
import re
import sys

LAYERS = [
    ('RocksDB (JNI)', r'org\.rocksdb\.'),
    ('CDC log read/encode', r'RocksDbCdcLog|LogCodec|dev\.tributary\.node\.changes\.'),
    ('capture (redo to LCR)', r'dev\.tributary\.capture\.'),
    ('commit (plan, apply)', r'dev\.tributary\.node\.exec\.|dev\.tributary\.node\.write\.'),
    # before gRPC: Ratis' transport is a shaded gRPC and Netty (org.apache.ratis.thirdparty.io.netty...)
    ('Ratis (Raft log, appenders, its gRPC)', r'org\.apache\.ratis\.|dev\.tributary\.node\.replication\.'),
    ('gRPC/Netty/protobuf', r'io\.grpc\.|io\.netty\.|com\.google\.protobuf\.'),
    ('SDK client', r'dev\.tributary\.client\.'),
    ('bench', r'dev\.tributary\.bench\.'),
]


def layer(frames):
    for frame in frames:
        for name, pattern in LAYERS:
            if re.search(pattern, frame):
                return name
    return 'other (JDK, ...)'


def main(path):
    events = open(path).read().split('jdk.ExecutionSample {')[1:]
    by_layer, by_thread, top = collections.Counter(), collections.Counter(), collections.Counter()
    for e in events:
        m = re.search(r'sampledThread = "([^"]*)"', e)
        thread = re.sub(r'[-#]?\d+$', '', m.group(1)) if m else '?'
        frames = re.findall(r'^\s+([\w.$<>]+)\(', e, re.M)
        by_layer[layer(frames)] += 1
        by_thread[thread] += 1
        if frames:
            top[frames[0]] += 1
    n = max(len(events), 1)
    print('samples', len(events))
    for title, counter, k in (('by layer', by_layer, 20), ('by thread', by_thread, 12), ('top frames', top, 15)):
        print('--', title)
        for key, count in counter.most_common(k):
            print('%5.1f%% %s' % (100.0 * count / n, key))


if __name__ == '__main__':
    main(sys.argv[1])
