// baffle's wire for the page: protobuf encoded and decoded by hand, and gRPC-Web calls
// over fetch. What each message is (its fields' numbers, names and types), which message
// each method takes and answers, and the enums' values come from schema.js, generated
// from proto/baffle/v1 (server/src/web/schema.rs); nothing here knows a field number. No
// library and no build step: what is here is what runs.

import { messages, enums, methods } from "./schema.js";

// ---------------------------------------------------------------- protobuf wire format

const utf8 = new TextDecoder();
const utf8Encode = new TextEncoder();

class Reader {
  constructor(bytes) { this.b = bytes; this.i = 0; }
  done() { return this.i >= this.b.length; }
  varint() {
    let v = 0n, shift = 0n;
    for (;;) {
      if (this.i >= this.b.length) throw new Error("truncated varint");
      const byte = this.b[this.i++];
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
      shift += 7n;
      if (shift > 63n) throw new Error("varint too long");
    }
  }
  bytes() {
    const n = Number(this.varint());
    if (this.i + n > this.b.length) throw new Error("truncated field");
    const out = this.b.subarray(this.i, this.i + n);
    this.i += n;
    return out;
  }
  skip(wireType) {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.i += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.i += 4;
    else throw new Error("unknown wire type " + wireType);
  }
}

// A message's schema (schema.js, generated from the protos) maps its field numbers to
// [name, type, label?]; a type is "string", "bytes", "bool", "uint", "int", "enum" or a
// message's name, and the label "repeated" or "optional" (set means sent, even zero).
// Unknown fields are skipped, as protobuf requires, so newer servers stay readable.
function schemaOf(type) {
  const schema = messages[type];
  if (!schema) throw new Error(`no message ${type} in baffle.v1`);
  return schema;
}

const isMessage = (type) => !(type in ZERO);
const ZERO = { string: "", bytes: new Uint8Array(0), bool: false, uint: 0, int: 0, enum: 0 };

function scalar(r, type) {
  const v = r.varint();
  if (type === "bool") return v !== 0n;
  if (type === "int") return Number(BigInt.asIntN(64, v));
  return Number(v);
}

// The message `type` (a name in schema.js) in `bytes`, every field present: a field not
// on the wire has its zero (a message's is null, a repeated one's []), except a field
// with presence (proto3 `optional`, a oneof's member), which is left out when not sent,
// so a oneof says which of its members is set.
function decode(bytes, type) {
  const schema = schemaOf(type);
  const out = {};
  for (const [name, kind, label] of Object.values(schema)) {
    if (label === "optional") continue;
    out[name] = label === "repeated" ? [] : isMessage(kind) ? null : ZERO[kind];
  }
  const r = new Reader(bytes);
  while (!r.done()) {
    const tag = Number(r.varint());
    const field = tag >>> 3, wireType = tag & 7;
    const spec = schema[field];
    if (!spec) { r.skip(wireType); continue; }
    const [name, kind, label] = spec;
    const rep = label === "repeated";
    if (isMessage(kind) || kind === "string" || kind === "bytes") {
      const raw = r.bytes();
      const v = kind === "string" ? utf8.decode(raw) : kind === "bytes" ? raw.slice() : decode(raw, kind);
      if (rep) out[name].push(v); else out[name] = v;
    } else if (rep && wireType === 2) {
      const packed = new Reader(r.bytes());
      while (!packed.done()) out[name].push(scalar(packed, kind));
    } else {
      const v = scalar(r, kind);
      if (rep) out[name].push(v); else out[name] = v;
    }
  }
  return out;
}

function varintBytes(n) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

// One value of a field as bytes on the wire (its tag first).
function encodeField(out, number, kind, value) {
  if (isMessage(kind) || kind === "string" || kind === "bytes") {
    const body = kind === "string" ? utf8Encode.encode(value) : kind === "bytes" ? value : encode(kind, value);
    out.push(...varintBytes((number << 3) | 2), ...varintBytes(body.length), ...body);
  } else {
    out.push(...varintBytes(number << 3), ...varintBytes(kind === "bool" ? Number(value) : value));
  }
}

// The message `type` with the fields of `value` (by their names in the proto): a field
// left out, or at its zero without presence, is not sent, as protobuf encodes them.
function encode(type, value = {}) {
  const schema = schemaOf(type);
  const known = new Set(Object.values(schema).map(([name]) => name));
  for (const name of Object.keys(value)) {
    if (!known.has(name)) throw new Error(`${type} has no field ${name}`);
  }
  const out = [];
  for (const [number, [name, kind, label]] of Object.entries(schema)) {
    const v = value[name];
    if (v === undefined || v === null) continue;
    if (label === "repeated") {
      for (const item of v) encodeField(out, Number(number), kind, item);
    } else if (label === "optional" || isMessage(kind) || !(v === ZERO[kind] || v.length === 0)) {
      encodeField(out, Number(number), kind, v);
    }
  }
  return new Uint8Array(out);
}

// ---------------------------------------------------------------- requests

const { SIDE_A, SIDE_B } = enums.Side;

// A player's seed requests (Audit.CommitPlayerSeed, Audit.RevealPlayerSeed): the match,
// the side, and the commitment or the seed (32 bytes each here). The reveal's salt is
// `optional bytes`: sent whenever there is one (construction 2), left out entirely for
// construction 1, where the server refuses a salt.
const commitRequest = (match, side, commitment) => ({ match_id: match, side, commitment });
const revealRequest = (match, side, seed, salt) => ({ match_id: match, side, seed, ...(salt ? { salt } : {}) });

// Live dice requests: Audit.CommitChain (match, side, anchor, length) and Audit.GiveLink
// (match, side, link).
const commitChainRequest = (match, side, anchor, length) => ({ match_id: match, side, anchor, length });
const giveLinkRequest = (match, side, link) => ({ match_id: match, side, link });

// Matches.Execute with one of a player's own plays: the Command's field ("roll",
// "double", "take", "pass", "press") and its value, a Side or a Roll (dice left empty:
// the server draws them).
const rollMessage = (side, link) => ({ side, link });
const executeRequest = (match, command, value) => ({ match_id: match, command: { [command]: value } });

// ---------------------------------------------------------------- gRPC-Web

class GrpcError extends Error {
  constructor(code, message) { super(`${message} (gRPC status ${code})`); this.code = code; }
}

function frame(message) {
  const out = new Uint8Array(5 + message.length);
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

function checkStatus(get) {
  const code = get("grpc-status");
  if (code && code !== "0") {
    throw new GrpcError(Number(code), decodeURIComponent(get("grpc-message") || ""));
  }
}

// The request and response messages of the method at `path` (schema.js).
function methodOf(path) {
  const types = methods[path];
  if (!types) throw new Error(`no method ${path} in baffle.v1`);
  return types;
}

// Calls the method at `path` ("/baffle.v1.Matches/Watch") with `request`, an object of
// its request message's fields by name, and yields each response message, decoded.
async function* call(path, request, signal, headers = {}) {
  const [input, output] = methodOf(path);
  const response = await fetch(path, {
    method: "POST",
    body: frame(encode(input, request)),
    signal,
    headers: {
      "content-type": "application/grpc-web+proto",
      "accept": "application/grpc-web+proto",
      "x-grpc-web": "1",
      ...headers,
    },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  checkStatus((h) => response.headers.get(h));
  const reader = response.body.getReader();
  let buf = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const joined = new Uint8Array(buf.length + value.length);
    joined.set(buf);
    joined.set(value, buf.length);
    buf = joined;
    while (buf.length >= 5) {
      const length = new DataView(buf.buffer, buf.byteOffset).getUint32(1);
      if (buf.length < 5 + length) break;
      const flags = buf[0], body = buf.slice(5, 5 + length);
      buf = buf.slice(5 + length);
      if (flags & 0x80) {
        const trailers = {};
        for (const line of utf8.decode(body).split("\r\n")) {
          const at = line.indexOf(":");
          if (at > 0) trailers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
        }
        checkStatus((h) => trailers[h]);
        return;
      }
      yield decode(body, output);
    }
  }
}

async function unary(path, request) {
  for await (const message of call(path, request)) return message;
  throw new Error("no reply");
}

export { utf8, utf8Encode, decode, encode, call, unary, GrpcError, enums,
  commitRequest, revealRequest, commitChainRequest, giveLinkRequest, rollMessage, executeRequest, SIDE_A, SIDE_B };
