// The page: a game against the network, click to move. State lives here;
// the rules and the search are jungle-wasm's, the network onnxruntime-web's.
import init, { Agent, Game, presetNames } from './pkg/jungle_wasm.js';
import { drawBoard } from './board.js';
import { checkFile, describeModel, ModelError, Network } from './network.js';
import { think } from './search.js';

const KNOWN_ENCODINGS = [1, 2, 3];
// The evaluation's play-time terms (`net:...:material=0.6:qsearch=0.5`).
const MATERIAL = 0.6;
const QSEARCH = 0.5;
const REASONS = {
  den: 'an animal entered the den', annihilation: 'no animals left', no_move: 'no legal move',
  repetition: 'repetition', quiet_limit: 'no capture for too long',
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = {
  network: null, game: null, agent: null, names: [], terrain: [],
  side: 'south', simulations: 200, rules: 'model', selected: null,
  thinking: false, answer: null, thinkMs: [], error: null, ready: false,
  seed: params.has('seed') ? Number(params.get('seed')) : Math.floor(Math.random() * 1e9),
};

function showError(text) {
  state.error = text;
  $('message').textContent = text;
  $('message').hidden = !text;
}

function rulesText() {
  return state.rules === 'model' ? JSON.stringify(state.network.model.rules) : state.rules;
}

function newAgent(simulations, seed) {
  const m = state.network.model;
  return new Agent(rulesText(), m.encoding, m.survival, simulations,
    m.survival ? MATERIAL : 0, QSEARCH, seed);
}

function legalFrom(index) {
  const from = state.names[index];
  return state.game.legalMoves().filter((m) => m.slice(0, 2) === from);
}

function render() {
  const game = state.game;
  const moves = game.moves();
  const last = moves.length ? moves[moves.length - 1] : null;
  const targets = state.selected === null ? [] : legalFrom(state.selected).map((m) => state.names.indexOf(m.slice(2)));
  drawBoard($('board'), {
    names: state.names, terrain: state.terrain, board: game.board(), side: state.side,
    selected: state.selected, targets,
    last: last ? [state.names.indexOf(last.slice(0, 2)), state.names.indexOf(last.slice(2))] : [],
    onClick,
  });
  const status = $('status');
  status.classList.toggle('thinking', state.thinking);
  if (game.isOver()) {
    const result = game.result();
    const who = result === 'draw' ? 'Draw' : result === state.side ? 'You win' : 'The agent wins';
    status.textContent = `${who}: ${REASONS[game.reason()] || game.reason()}`;
    status.dataset.over = 'true';
  } else {
    status.textContent = state.thinking ? 'The agent is thinking' : game.sideToMove() === state.side ? 'Your move' : 'The agent to move';
    delete status.dataset.over;
  }
  const a = state.answer;
  $('estimate').textContent = a
    ? `Agent: win ${pct(a.wdl[0])}, draw ${pct(a.wdl[1])}, loss ${pct(a.wdl[2])} (${a.simulations} simulations, ${state.thinkMs.at(-1)} ms)`
    : '';
  $('moves').replaceChildren(...moves.map((m) => Object.assign(document.createElement('li'), { textContent: m })));
}

const pct = (p) => `${Math.round(p * 100)}%`;

async function agentMove() {
  if (state.game.isOver() || state.game.sideToMove() === state.side) return;
  state.thinking = true;
  render();
  try {
    const started = performance.now();
    state.answer = await think(state.agent, state.game, state.network);
    state.thinkMs.push(Math.round(performance.now() - started));
    state.game.play(state.answer.best);
  } catch (e) {
    showError(`The agent could not move: ${e.message || e}`);
  } finally {
    state.thinking = false;
    render();
  }
}

function onClick(index) {
  const game = state.game;
  if (state.thinking || game.isOver() || game.sideToMove() !== state.side) return;
  if (state.selected !== null) {
    const mv = legalFrom(state.selected).find((m) => m.slice(2) === state.names[index]);
    if (mv) {
      state.selected = null;
      game.play(mv);
      render();
      agentMove();
      return;
    }
  }
  state.selected = legalFrom(index).length ? index : null;
  render();
}

/** A new game from the rule set's start, after `opening` (moves) if given. */
function newGame(opening = []) {
  if (!state.network) return;
  try {
    state.game = new Game(rulesText(), null);
    for (const mv of opening) state.game.play(mv);
    state.agent = newAgent(state.simulations, state.seed++);
    showError(null);
  } catch (e) {
    showError(`${e.message || e}`);
    return;
  }
  state.selected = null;
  state.answer = null;
  render();
  agentMove();
}

function undo() {
  if (state.thinking || !state.game) return;
  // Back to the player's last turn: the agent's reply and the player's move.
  do {
    if (state.game.undo() === undefined) break;
  } while (state.game.sideToMove() !== state.side);
  state.selected = null;
  render();
  agentMove();
}

async function useModel(json, onnxBytes, origin) {
  const model = describeModel(json, KNOWN_ENCODINGS);
  await checkFile(json, 'model.onnx', onnxBytes);
  const network = await Network.load(model, onnxBytes);
  try {
    // Rules or an encoding the page cannot serve are refused here, with the reason.
    new Agent(JSON.stringify(model.rules), model.encoding, model.survival, 1,
      model.survival ? MATERIAL : 0, QSEARCH, 0).free();
  } catch (e) {
    throw new ModelError(`${origin}: ${e.message || e}`);
  }
  state.network = network;
  $('model').textContent = `Model: ${origin} (${model.json.network.blocks} blocks x ${model.json.network.filters} filters, `
    + `step ${model.json.step}, encoding ${model.encoding}${model.survival ? ', survival head' : ''})`;
  newGame();
}

async function loadModelUrl(base) {
  const get = async (name) => {
    const r = await fetch(new URL(name, base));
    if (!r.ok) throw new ModelError(`${base}${name}: HTTP ${r.status}`);
    return r;
  };
  const jsonText = await (await get('model.json')).text();
  let json;
  try { json = JSON.parse(jsonText); } catch (e) { throw new ModelError(`${base}model.json is not JSON: ${e.message}`); }
  const onnx = new Uint8Array(await (await get('model.onnx')).arrayBuffer());
  await useModel(json, onnx, base);
}

async function loadModelFiles(files) {
  const byName = (suffix) => [...files].find((f) => f.name.endsWith(suffix));
  const jsonFile = byName('.json');
  const onnxFile = byName('.onnx');
  if (!jsonFile || !onnxFile) throw new ModelError('pick both model.onnx and model.json');
  let json;
  try { json = JSON.parse(await jsonFile.text()); } catch (e) { throw new ModelError(`${jsonFile.name} is not JSON: ${e.message}`); }
  await useModel(json, new Uint8Array(await onnxFile.arrayBuffer()), `${onnxFile.name} + ${jsonFile.name}`);
}

/** A fresh search of `fen` as `jungle analyze` runs it (seed 0): its answer. */
async function analyze(fen, simulations) {
  const game = new Game(rulesText(), fen);
  const agent = newAgent(simulations, 0);
  return think(agent, game, state.network);
}

async function main() {
  await init();
  state.names = Game.squareNames();
  state.terrain = Game.terrain();
  $('rules').replaceChildren(new Option("the model's own", 'model'), ...presetNames().map((n) => new Option(n, n)));
  $('new-game').addEventListener('click', () => newGame());
  $('undo').addEventListener('click', undo);
  $('side').addEventListener('change', (e) => { state.side = e.target.value; newGame(); });
  $('simulations').addEventListener('change', (e) => { state.simulations = Number(e.target.value); newGame(); });
  $('rules').addEventListener('change', (e) => { state.rules = e.target.value; newGame(); });
  // For test harnesses: a game from an opening (as `jungle arena` plays
  // paired openings), and the legal moves after some moves.
  const harness = {
    newGame(side, opening) { state.side = side; $('side').value = side; newGame(opening); },
    legalAfter(moves) {
      const game = new Game(rulesText(), null);
      for (const mv of moves) game.play(mv);
      const legal = game.legalMoves();
      game.free();
      return legal;
    },
  };
  $('model-files').addEventListener('change', (e) => loadModelFiles(e.target.files).catch((err) => showError(err.message)));
  window.junglePage = {
    get ready() { return state.ready; },
    get thinking() { return state.thinking; },
    get error() { return state.error; },
    get thinkMs() { return state.thinkMs.slice(); },
    get answer() { return state.answer; },
    state: () => ({
      fen: state.game.fen(), moves: state.game.moves(), over: state.game.isOver(),
      result: state.game.result() ?? null, reason: state.game.reason() ?? null,
      toMove: state.game.sideToMove(), side: state.side,
    }),
    analyze,
    ...harness,
  };
  try {
    await loadModelUrl(new URL(params.get('model') || 'model/', location.href).href);
  } catch (e) {
    showError(`${e.message || e}`);
    $('status').textContent = 'No model loaded';
  }
  state.ready = true;
}

main().catch((e) => showError(`The page could not start: ${e.message || e}`));
