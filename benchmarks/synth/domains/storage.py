"""Domain vocabulary: distributed storage and replication."""

__all__ = ["DOMAIN"]

DOMAIN = {
    "name": "storage",
    "tops": ["Storage Architecture", "Replication and Durability", "Data Lifecycle Management", "Storage Operations"],
    "subs": [
        "Write Path", "Read Path", "Leader Election", "Follower Catch-Up", "Snapshot Handling", "Compaction Policy",
        "Partition Placement", "Disk Failure Handling", "Backup Schedules", "Restore Drills", "Cache Sizing",
        "Consistency Levels", "Rebalancing", "Retention Rules", "Capacity Forecasts", "Upgrade Sequencing",
    ],
    "subjects": [
        "the replication log", "each storage node", "the partition coordinator", "the leader replica",
        "the background compactor", "the snapshot service", "the block cache", "the placement service",
        "the backup agent", "the read router", "the index builder", "the storage controller",
    ],
    "preds": [
        "absorbs short bursts of writes without stalling clients", "keeps a bounded queue of pending segments",
        "hands off ownership cleanly during a restart", "verifies checksums before serving a block",
        "spreads replicas across three failure domains", "throttles itself when the disks are saturated",
        "flushes dirty pages in small batches", "rebuilds missing replicas from healthy peers",
        "serves reads from the nearest healthy copy", "records every ownership change in durable storage",
        "retries failed uploads with exponential backoff", "pauses rebalancing while a node is draining",
        "tracks the age of every unmerged segment", "rejects writes that would exceed the partition quota",
    ],
    "conds": [
        "a follower restarts after a crash", "a disk reports uncorrectable errors", "the cluster gains a new node",
        "write traffic doubles within a few minutes", "a rack loses power", "the backup window overlaps peak load",
        "a partition grows beyond its target size", "a network partition isolates the leader",
        "a snapshot upload is interrupted", "the cache is cold after a deployment",
    ],
    "metrics": [
        "tail latency", "write amplification", "disk utilisation", "restore time", "cache hit ratio",
        "replica divergence", "queue depth", "recovery bandwidth",
    ],
    "actions": [
        "rebuild the index from a recent snapshot", "drain the node before patching the host", "rotate the oldest segments",
        "move hot partitions to quieter nodes", "verify the backups against their checksums",
        "raise the replication factor for critical tables", "schedule compaction outside business hours",
        "pin the leader to the least loaded node", "replay the log on a staging cluster",
        "trim snapshots that are older than the retention period", "throttle background traffic during peaks",
        "resize the cache after each hardware refresh",
    ],
    "objects": [
        "the partition map", "the segment index", "the snapshot catalogue", "the placement rules",
        "the checksum store", "the retention calendar", "the recovery queue", "the disk inventory",
    ],
    "figures": [
        ("Write latency against offered load", "Line chart of median and tail write latency rising with offered load."),
        ("Replica placement across failure domains", "Diagram of nine replicas spread over three racks."),
        ("Compaction backlog over one week", "Bar chart of unmerged segments per day for seven days."),
        ("Restore time by snapshot size", "Scatter plot of restore duration against snapshot size."),
        ("Cache hit ratio after a deployment", "Line chart of the hit ratio recovering over two hours."),
        ("Disk utilisation per node", "Bar chart of disk usage for twelve storage nodes."),
    ],
    "tables": [
        ("Replication settings per storage tier", ["Tier", "Replicas", "Sync mode", "Median lag in ms"],
         ["hot", "warm", "cold", "archive"], [("int", 2, 5), ("choice", ["sync", "async", "quorum"]), ("float", 0.5, 40)]),
        ("Compaction parameters", ["Parameter", "Default", "Minimum", "Maximum"],
         ["segment size in MB", "merge width", "idle threshold in s", "max parallel merges"],
         [("int", 4, 64), ("int", 1, 8), ("int", 64, 512)]),
        ("Backup schedule by data class", ["Data class", "Frequency per day", "Retention in days", "Verified"],
         ["customer records", "audit logs", "metrics", "search indexes"], [("int", 1, 24), ("int", 7, 400), ("choice", ["yes", "no"])]),
    ],
    "list_intros": ["The node replacement runbook proceeds in the following steps:", "A restore drill follows a fixed checklist:"],
    "list_items": [
        "Confirm that every partition on the node has two healthy replicas elsewhere.",
        "Drain client traffic and wait for in-flight writes to finish.",
        "Take a final snapshot and verify its checksum.", "Remove the node from the placement rules.",
        "Replace the hardware and run the burn-in suite for one hour.", "Add the node back with a low placement weight.",
        "Raise the weight gradually while watching tail latency.", "Record the replacement in the disk inventory.",
    ],
    "statements": [
        "If every write is acknowledged by a majority of replicas, no acknowledged write is lost when a single node fails.",
        "The compaction backlog stays bounded whenever the merge rate exceeds the segment creation rate.",
        "A follower that replays the log from its last checkpoint converges to the state of the leader.",
        "Restore time grows at most linearly with snapshot size when recovery bandwidth is fixed.",
    ],
    "terms": [
        ("replication lag", "the time between a write being acknowledged by the leader and its application on the slowest follower"),
        ("compaction debt", "the volume of unmerged segments that the compactor still has to rewrite"),
        ("read amplification", "the number of disk reads needed to answer a single logical read"),
        ("placement skew", "the ratio between the busiest node's share of partitions and the average share"),
    ],
    "acronyms": [
        ("Write-Ahead Log", "WAL", "Every storage node keeps a {L} ({A}) in which each change is recorded before it is applied.",
         ["Every change is appended to the {A} before it reaches the data files.", "Compaction trims the {A} once a checkpoint completes."]),
        ("Recovery Point Objective", "RPO", "Each data class has a {L} ({A}) that bounds how much recent data a failure may lose.",
         ["The hourly snapshots keep every class within its {A}.", "A missed backup is reported as a breach of the {A}."]),
        ("Mean Time To Recovery", "MTTR", "The operations team reports the {L} ({A}) of every storage incident.",
         ["The {A} fell steadily once restore drills became routine.", "Automated failover removed most of the manual steps from the {A}."]),
        ("Log-Structured Merge", "LSM", "The storage engine is built on a {L} ({A}) tree that turns random writes into sequential ones.",
         ["Each {A} level holds roughly ten times more data than the level above it.", "Deep {A} trees trade read cost for cheaper writes."]),
    ],
    "symbols": [
        ("The mean arrival rate of write requests", "is estimated over one-minute windows", "W = N / {s}"),
        ("The fraction of reads served from the block cache", "is reported by every storage node", "T = {s} · c + ( 1 − {s} ) · d"),
        ("The number of replicas per partition", "is fixed per storage tier", "S = {s} · B"),
        ("The segment merge rate", "is measured in segments per minute", "Q = A − {s}"),
    ],
    "tasks": ["replica placement", "snapshot retention", "disk replacement", "cache warming", "partition splitting"],
    "components": ["rebalancer", "scrubber", "checkpoint writer", "placement auditor"],
}
