// The network: an exported model (model.onnx + model.json from
// `jungle export`) run by onnxruntime-web, checked against what this page
// can serve before it is used.
import * as ort from './ort/ort.wasm.min.mjs';

ort.env.wasm.wasmPaths = new URL('./ort/', import.meta.url).href;
// Several threads need a cross-origin isolated page; a plain static
// server does not give one, so the network runs on one.
ort.env.wasm.numThreads = 1;

/** What went wrong with a model, in words for the player. */
export class ModelError extends Error {}

/** Checks model.json (parsed) and returns what the page needs of it. */
export function describeModel(json, knownEncodings) {
  if (!json || json.format !== 'jungle-zero-model') {
    throw new ModelError(`model.json: expected "format": "jungle-zero-model", found ${JSON.stringify(json && json.format)}`);
  }
  if (json.format_version !== 1 && json.format_version !== 2) {
    throw new ModelError(`model.json: format_version ${json.format_version} is newer than this page (it reads 1 and 2)`);
  }
  if (json.format_version === 2 && !(json.files && json.files['model.onnx'])) {
    throw new ModelError('model.json: format_version 2 without a record of model.onnx in "files"');
  }
  if (!knownEncodings.includes(json.encoding_version)) {
    throw new ModelError(`model.json: encoding_version ${json.encoding_version} is not one this page can encode (it knows ${knownEncodings.join(', ')})`);
  }
  const outputs = (json.outputs || []).map((o) => o.name);
  for (const name of ['policy', 'wdl']) {
    if (!outputs.includes(name)) throw new ModelError(`model.json: no "${name}" output`);
  }
  return {
    json,
    input: json.input.name,
    planes: json.input.shape[1],
    encoding: json.encoding_version,
    survival: outputs.includes('survival'),
    rules: json.rules,
  };
}

/**
 * Checks `bytes` against model.json's record of the file `name` (format 2
 * records each file's size and SHA-256 and is written last, so a folder
 * left by an export killed part-way is refused here). Format 1 records
 * nothing; without WebCrypto (a page not served from https or localhost)
 * only the size is checked.
 */
export async function checkFile(json, name, bytes) {
  const record = json.files && json.files[name];
  if (!record) return;
  const mixed = (found) => new ModelError(`${name} is not the file model.json records (${found}; expected `
    + `${record.bytes} bytes, SHA-256 ${record.sha256.slice(0, 16)}): the files are from two exports, perhaps one killed part-way; export again`);
  if (bytes.byteLength !== record.bytes) throw mixed(`${bytes.byteLength} bytes`);
  if (globalThis.crypto && globalThis.crypto.subtle) {
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    if (hex !== record.sha256) throw mixed(`SHA-256 ${hex.slice(0, 16)}`);
  }
}

/** A loaded network: `model` from describeModel, the ONNX bytes. */
export class Network {
  static async load(model, onnxBytes) {
    let session;
    try {
      session = await ort.InferenceSession.create(onnxBytes, { executionProviders: ['wasm'] });
    } catch (e) {
      throw new ModelError(`model.onnx could not be loaded: ${e.message || e}`);
    }
    for (const name of [model.input]) {
      if (!session.inputNames.includes(name)) throw new ModelError(`model.onnx has no input "${name}" (model.json names it)`);
    }
    for (const name of ['policy', 'wdl'].concat(model.survival ? ['survival'] : [])) {
      if (!session.outputNames.includes(name)) throw new ModelError(`model.onnx has no output "${name}"`);
    }
    return new Network(model, session);
  }

  constructor(model, session) {
    this.model = model;
    this.session = session;
  }

  /** Outputs for `n` positions' planes (Float32Array): policy, wdl, survival logits. */
  async run(planes, n) {
    const input = new ort.Tensor('float32', planes, [n, this.model.planes, 9, 7]);
    const out = await this.session.run({ [this.model.input]: input });
    return {
      policy: out.policy.data,
      wdl: out.wdl.data,
      survival: this.model.survival ? out.survival.data : new Float32Array(0),
    };
  }
}
