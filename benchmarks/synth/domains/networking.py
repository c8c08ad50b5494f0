"""Domain vocabulary: networking and web services."""

__all__ = ["DOMAIN"]

DOMAIN = {
    "name": "networking",
    "tops": ["Network Edge and Routing", "Service Connectivity", "Traffic Management", "Network Operations"],
    "subs": [
        "Load Balancer Pools", "Health Checking", "Connection Reuse", "Retry Budgets", "Edge Caching",
        "Certificate Rotation", "Rate Limiting", "Request Routing", "Timeouts and Deadlines", "Regional Failover",
        "Packet Loss Handling", "Address Planning", "Firewall Rules", "Traffic Mirroring", "Peering Links",
        "Protocol Upgrades",
    ],
    "subjects": [
        "the edge proxy", "each load balancer", "the routing layer", "the health checker", "the connection pool",
        "the rate limiter", "the regional gateway", "the service mesh sidecar", "the edge cache",
        "the certificate manager", "the traffic shaper", "the name resolver",
    ],
    "preds": [
        "drops unhealthy backends within two probe intervals", "reuses warm connections for most requests",
        "spreads new sessions evenly across availability zones", "caps the share of retried requests",
        "serves static content without touching the origin", "renews credentials well ahead of expiry",
        "sheds low-priority traffic first under overload", "keeps per-client counters in shared memory",
        "routes requests by path and header rules", "marks slow backends and lowers their weight",
        "mirrors a sample of traffic to the staging fleet", "resolves names from a local cache",
        "closes idle connections after a short grace period", "enforces a deadline on every upstream call",
    ],
    "conds": [
        "an availability zone becomes unreachable", "a backend starts returning errors", "a client opens thousands of connections",
        "a certificate is close to expiry", "a routing rule is changed", "latency between regions spikes",
        "a deployment replaces half of the backends", "a denial-of-service attack begins", "packet loss exceeds one percent",
        "the origin responds slowly",
    ],
    "metrics": [
        "request latency", "error rate", "connection churn", "retry volume", "cache offload", "handshake time",
        "bandwidth cost", "queueing delay",
    ],
    "actions": [
        "shift traffic away from the affected zone", "lower the retry limit for non-idempotent calls",
        "pre-warm the edge cache before a launch", "rotate certificates a week before expiry",
        "tighten the health check interval", "raise connection limits on the busiest gateways",
        "replay captured traffic against the new build", "split the routing table by tenant",
        "add a second peering link to the busiest region", "enable request hedging for read-only calls",
        "shorten upstream timeouts for interactive traffic", "review firewall rules every quarter",
    ],
    "objects": [
        "the routing table", "the backend pool", "the certificate store", "the rate limit policy",
        "the zone map", "the peering agreement", "the traffic dashboard", "the probe configuration",
    ],
    "figures": [
        ("Request latency percentiles per region", "Line chart of median and tail request latency in four regions."),
        ("Traffic shift during a zone failure", "Stacked area chart of traffic per zone before and after a failure."),
        ("Edge cache offload by content type", "Bar chart of the share of requests served from the edge cache."),
        ("Connection churn over a day", "Line chart of new connections per second over twenty-four hours."),
        ("Retry volume against error rate", "Scatter plot of retried requests against backend error rate."),
        ("Handshake time before and after session resumption", "Bar chart comparing handshake times."),
    ],
    "tables": [
        ("Timeout settings per call type", ["Call type", "Timeout in ms", "Retries", "Hedged"],
         ["interactive read", "batch read", "write", "admin"], [("int", 50, 3000), ("int", 0, 3), ("choice", ["yes", "no"])]),
        ("Health check parameters", ["Parameter", "Edge", "Internal", "Batch"],
         ["interval in s", "timeout in s", "failures to eject", "successes to restore"],
         [("int", 1, 10), ("int", 1, 10), ("int", 1, 10)]),
        ("Regional capacity", ["Region", "Gateways", "Peak Gbps", "Headroom in %"],
         ["north", "south", "east", "west"], [("int", 4, 32), ("float", 10, 400), ("int", 15, 60)]),
    ],
    "list_intros": ["A zone evacuation proceeds in the following steps:", "Rolling out a new routing rule takes the following steps:"],
    "list_items": [
        "Announce the change in the operations channel.", "Lower the weight of the affected zone to zero.",
        "Wait until active connections drain below one percent.", "Confirm that error rates in the remaining zones are stable.",
        "Apply the change to a single gateway first.", "Compare latency on that gateway with its neighbours for ten minutes.",
        "Roll the change out to the remaining gateways.", "Restore the original weights once the zone is healthy.",
    ],
    "statements": [
        "If every client caps its resent calls at one in ten, retried traffic never exceeds a tenth of the original load.",
        "A backend that fails two consecutive probes is removed from the pool before a third request arrives.",
        "With request hedging enabled, tail latency is bounded by the faster of two independent replicas.",
        "Draining a zone at a constant rate keeps the load on every remaining zone below its capacity.",
    ],
    "terms": [
        ("retry budget", "the share of requests that a client may resend within a rolling ten-second window"),
        ("ejection threshold", "the number of consecutive failed probes after which a backend leaves the pool"),
        ("drain horizon", "the time a gateway waits for open connections to finish before it shuts down"),
        ("origin offload", "the fraction of requests answered without contacting the origin servers"),
    ],
    "acronyms": [
        ("Time To Live", "TTL", "Every cached response carries a {L} ({A}) after which the edge must revalidate it.",
         ["A short {A} keeps prices fresh at the cost of more origin traffic.", "Static assets use a {A} of one day."]),
        ("Round-Trip Time", "RTT", "The scheduler estimates the {L} ({A}) to every region from passive measurements.",
         ["Requests go to the region with the lowest {A} unless it is overloaded.", "The {A} between the two coasts is about sixty milliseconds."]),
        ("Border Gateway Protocol", "BGP", "External routes are exchanged with providers over the {L} ({A}).",
         ["A misconfigured {A} session can withdraw a whole prefix.", "Route changes in {A} take several seconds to settle."]),
        ("Maximum Transmission Unit", "MTU", "Tunnels reduce the usable {L} ({A}) of every link they cross.",
         ["Packets larger than the {A} are fragmented or dropped.", "The overlay network lowers the {A} to leave room for headers."]),
    ],
    "symbols": [
        ("The request rate arriving at a gateway", "is sampled every ten seconds", "U = {s} · S / M"),
        ("The probability that a single request fails", "is estimated from the last thousand calls", "P = {s} ^ k"),
        ("The round-trip delay between two regions", "is taken from passive measurements", "D = 2 · {s} + H"),
        ("The share of traffic sent to the canary fleet", "is raised in small steps", "C = {s} · R"),
    ],
    "tasks": ["zone evacuation", "certificate renewal", "traffic shaping", "backend ejection", "route propagation"],
    "components": ["probe scheduler", "route reflector", "session cache", "admission controller"],
}
