"""PostgreSQL creates/s of two builds of Tacit, each its own instance on its own database of
one throwaway cluster, their peak create runs taken in turns (the other build first every
other round), so that a slow spell of the shared machine falls on both: how a change on
the PostgreSQL path is compared with the commit before it. `Benchmarks/run postgres` runs
it when BENCH_AGAINST names the other build's binary (`Benchmarks/alternate REV` builds one)."""
import math
import statistics

from benchlib import Server, wrk


def builds_in_turns(cluster, against, binary, rounds, seconds):
    """This build's creates/s over the other's, per round; prints each round."""
    servers = {}
    try:
        for label, path in (("against", against), ("this", binary)):
            url = cluster.database(f"bench_turns_{label}")
            servers[label] = Server(extra=["--database-url", url], binary=path).start()
        ratios = []
        for round_number in range(rounds):
            base = str(20000000 + 2000000 * round_number)
            order = ["against", "this"] if round_number % 2 == 0 else ["this", "against"]
            rates = {label: wrk(servers[label].url, seconds=seconds, script="create_sms.lua",
                                env={"TACIT_NUMBER_BASE": base})["rps"] for label in order}
            ratios.append(rates["this"] / rates["against"] if rates["against"] else 0)
            print(f"  builds in turns, round {round_number + 1}: {against} {rates['against']:,.0f}/s, "
                  f"this build {rates['this']:,.0f}/s = {ratios[-1]:.2f}", flush=True)
        return ratios
    finally:
        for server in servers.values():
            server.stop()
            server.remove()


def describe(ratios):
    geometric = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if all(r > 0 for r in ratios) else 0
    return f"{statistics.median(ratios):.2f} median, {geometric:.2f} geometric mean of {len(ratios)} rounds"
