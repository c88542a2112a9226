// The agent's move: the Rust search (jungle-wasm's Agent) asks for the
// leaves it wants judged, the network judges them, until the search is
// done; the same loop as `net:` players run in `jungle`.

/** Runs `agent`'s search of `game` with `network`; the parsed answer. */
export async function think(agent, game, network) {
  agent.begin(game);
  for (;;) {
    const planes = agent.nextBatch();
    if (planes.length === 0) break;
    const out = await network.run(planes, agent.batchLen());
    agent.apply(out.policy, out.wdl, out.survival);
  }
  return JSON.parse(agent.result());
}
