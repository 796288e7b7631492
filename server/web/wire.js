// baffle's wire for the page: protobuf encoded and decoded by hand, the schemas of the
// messages the page reads (copied by field number from proto/baffle/v1), and gRPC-Web
// calls over fetch. No library and no build step: what is here is what runs.
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

// A schema maps field numbers to [name, type, "repeated"?]; a type is "string", "bool",
// "uint", "int64", "enum" or another schema. Unknown fields are skipped, as protobuf
// requires, so newer servers stay readable.
function scalar(r, type) {
  const v = r.varint();
  if (type === "bool") return v !== 0n;
  if (type === "int64") return Number(BigInt.asIntN(64, v));
  return Number(v);
}

function decode(bytes, schema) {
  const out = {};
  for (const [name, type, rep] of Object.values(schema)) {
    out[name] = rep ? [] : type === "string" ? "" : type === "bool" ? false :
      typeof type === "object" ? null : 0;
  }
  const r = new Reader(bytes);
  while (!r.done()) {
    const tag = Number(r.varint());
    const field = tag >>> 3, wireType = tag & 7;
    const spec = schema[field];
    if (!spec) { r.skip(wireType); continue; }
    const [name, type, rep] = spec;
    if (typeof type === "object") {
      const v = decode(r.bytes(), type);
      if (rep) out[name].push(v); else out[name] = v;
    } else if (type === "string") {
      const v = utf8.decode(r.bytes());
      if (rep) out[name].push(v); else out[name] = v;
    } else if (rep && wireType === 2) {
      const packed = new Reader(r.bytes());
      while (!packed.done()) out[name].push(scalar(packed, type));
    } else {
      const v = scalar(r, type);
      if (rep) out[name].push(v); else out[name] = v;
    }
  }
  return out;
}

function varintBytes(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

// Encodes a flat message of strings, bytes and unsigned integers: all the requests need.
function encode(fields) {
  const out = [];
  for (const [field, value] of fields) {
    if (typeof value === "string" || value instanceof Uint8Array) {
      const s = typeof value === "string" ? utf8Encode.encode(value) : value;
      out.push(...varintBytes((field << 3) | 2), ...varintBytes(s.length), ...s);
    } else if (value) {
      out.push(...varintBytes(field << 3), ...varintBytes(value));
    }
  }
  return new Uint8Array(out);
}

// ---------------------------------------------------------------- schemas (baffle.v1)

const SideClock = {
  1: ["main_ms", "int64"], 2: ["delay_ms", "int64"], 4: ["moves", "uint"],
  5: ["period", "uint"], 9: ["flagged_at_ms", "int64"],
};
const ClockState = {
  1: ["as_of_ms", "int64"], 3: ["a", SideClock], 4: ["b", SideClock],
  5: ["running", "enum"], 6: ["paused", "enum"], 7: ["next_flag_at_ms", "int64"],
  9: ["frozen", "bool"],
};
const ChessResult = { 1: ["outcome", "enum"], 2: ["reason", "enum"] };
const ChessState = {
  1: ["category", "string"], 4: ["games", "uint"], 5: ["white", "enum"], 6: ["started", "bool"],
  7: ["to_move", "enum"], 10: ["flags", { 1: ["color", "enum"], 2: ["at_ms", "int64"] }, "repeated"],
  11: ["quickplay_claim", "enum"],
  12: ["results", { 1: ["game", "uint"], 2: ["white", "enum"], 3: ["result", ChessResult] }, "repeated"],
  13: ["half_points_a", "uint"], 14: ["half_points_b", "uint"],
  15: ["position", { 1: ["sp", "uint"], 2: ["back_rank", "string"], 90: ["black_back_rank", "string"] }],
  16: ["chess960", "bool"], 17: ["moves", "uint", "repeated"], 90: ["laws_name", "string"], 91: ["quickplay_postponed", "bool"],
};
const MatchResult = { 1: ["winner", "enum"], 2: ["how", "string"], 3: ["confirmed", "bool"], 4: ["how_kind", "enum"] };
const MatchState = {
  1: ["match_id", "string"], 2: ["tournament_id", "string"], 3: ["round", "uint"],
  4: ["table", "string"], 5: ["player_a", "string"], 6: ["player_b", "string"],
  7: ["length", "uint"], 8: ["score_a", "uint"], 9: ["score_b", "uint"],
  10: ["phase", "enum"], 11: ["game_number", "uint"], 12: ["crawford", "bool"],
  14: ["cube_value", "uint"], 15: ["cube_owner", "enum"], 16: ["turn", "enum"],
  17: ["turn_side", "enum"], 18: ["dice", "uint", "repeated"], 19: ["clock", ClockState],
  20: ["result", MatchResult], 21: ["seq", "uint"], 25: ["present", "bool", "repeated"],
  22: ["head_hash", "string"], 23: ["dice_source", "string"], 24: ["commitment", "string"],
  26: ["penalty_points", "uint", "repeated"], 33: ["sent_at_ms", "int64"],
  34: ["chess", ChessState],
  35: ["player_seeds", { 1: ["commitment", "string"], 2: ["seed", "string"] }, "repeated"],
  36: ["player_seeds_required", "bool"], 80: ["warnings", "uint", "repeated"],
  81: ["dice_construction", "uint"], 82: ["reveal_due_ms", "int64"], 83: ["dice_revealed", "bool"],
  84: ["signed_head", { 1: ["match_id", "string"], 2: ["length", "uint"], 3: ["head", "string"],
    4: ["signature", "string"], 5: ["signer", "string"] }],
};
// Live dice (docs/dice.md): each player's chain as the log knows it, and the draw that
// waits for the players' links.
const LiveChain = { 1: ["head", "string"], 2: ["left", "uint"] };
const LiveDraw = { 1: ["side", "enum"], 2: ["asked_ms", "int64"], 3: ["due_ms", "int64"],
  4: ["given_a", "bool"], 5: ["given_b", "bool"] };
MatchState[86] = ["live_dice", { 1: ["chain_a", LiveChain], 2: ["chain_b", LiveChain], 3: ["waiting", LiveDraw] }];
MatchState[60] = ["board", {
  1: ["checkers_a", "uint", "repeated"], 2: ["checkers_b", "uint", "repeated"],
  3: ["pips", "uint", "repeated"], 4: ["borne_off", "uint", "repeated"],
  5: ["gnubg_position_id", "string"], 6: ["moved", "bool"],
}];
const ExportMatchResponse = { 1: ["text", "string"], 2: ["file_name", "string"] };
const Event = { 1: ["seq", "uint"], 2: ["kind", "string"], 3: ["body", "string"] };
const MatchUpdate = { 1: ["events", Event, "repeated"], 2: ["state", MatchState] };
const Tournament = { 1: ["id", "string"], 2: ["name", "string"], 80: ["venue", "string"],
  81: ["first_day", "string"], 82: ["last_day", "string"] };
const ExportLine = { 1: ["line", "string"] };
const GetCommitmentResponse = { 1: ["commitment", "string"], 2: ["dice_construction", "uint"] };
const ListTournamentsResponse = { 1: ["tournaments", Tournament, "repeated"] };
const ListMatchesResponse = { 1: ["matches", MatchState, "repeated"] };

// baffle.v1.Draws (draws.proto): a tournament's draw as it stands, for the draw's views.
const DrawPlan = { 1: ["format", "enum"], 2: ["flights", "enum"], 3: ["cycles", "uint"], 4: ["rounds", "uint"], 5: ["length", "uint"] };
const Entrant = { 1: ["number", "uint"], 2: ["details", { 1: ["name", "string"], 3: ["club", "string"] }], 3: ["status", "enum"] };
const Pairing = {
  1: ["key", "string"], 2: ["flight", "enum"], 3: ["round", "uint"], 4: ["index", "uint"],
  5: ["player_a", "uint"], 6: ["player_b", "uint"], 7: ["name_a", "string"], 8: ["name_b", "string"],
  9: ["state", "enum"], 10: ["match_id", "string"], 11: ["table", "string"], 12: ["start_ms", "int64"],
  13: ["winner", "uint"], 14: ["score_a", "uint"], 15: ["score_b", "uint"], 16: ["unplayed", "bool"],
  17: ["ruling", "string"],
};
const StandingRow = {
  1: ["place", "uint"], 2: ["entrant", "uint"], 3: ["name", "string"], 4: ["played", "uint"],
  5: ["wins", "uint"], 6: ["losses", "uint"], 7: ["byes", "uint"], 8: ["score_halves", "uint"],
  9: ["points_for", "uint"], 10: ["points_against", "uint"], 11: ["buchholz_halves", "uint"],
  12: ["sonneborn_berger_quarters", "uint"], 13: ["draws", "uint"],
};
const DrawView = {
  1: ["tournament_id", "string"], 2: ["name", "string"], 3: ["plan", DrawPlan], 4: ["tables", "string", "repeated"],
  5: ["commitment", "string"], 6: ["seed", "string"], 7: ["entrants", Entrant, "repeated"],
  8: ["seeds", "uint", "repeated"], 9: ["order", "uint", "repeated"], 10: ["pairings", Pairing, "repeated"],
  11: ["byes", { 1: ["key", "string"], 2: ["entrant", "uint"] }, "repeated"],
  12: ["rounds", { 1: ["flight", "enum"], 2: ["round", "uint"], 3: ["started", "bool"], 4: ["start_ms", "int64"] }, "repeated"],
  13: ["standings", StandingRow, "repeated"],
  14: ["placings", { 1: ["flight", "enum"], 2: ["entrant", "uint"], 3: ["name", "string"], 4: ["place", "uint"] }, "repeated"],
  15: ["log_length", "uint"], 16: ["head", "string"], 17: ["drawn_at_ms", "int64"],
};

const SIDE_A = 1, SIDE_B = 2;

// A player's seed requests (Audit.CommitPlayerSeed, Audit.RevealPlayerSeed): the match,
// the side, and the commitment or the seed (32 bytes each here). The reveal's salt is
// field 4, `optional bytes`: sent whenever there is one (construction 2), left out
// entirely for construction 1, where the server refuses a salt.
const commitRequest = (match, side, commitment) => encode([[1, match], [2, side], [3, commitment]]);
const revealRequest = (match, side, seed, salt) =>
  encode([[1, match], [2, side], [3, seed], ...(salt ? [[4, salt]] : [])]);

// Live dice requests: Audit.CommitChain (match, side, anchor, length) and Audit.GiveLink
// (match, side, link).
const commitChainRequest = (match, side, anchor, length) => encode([[1, match], [2, side], [3, anchor], [4, length]]);
const giveLinkRequest = (match, side, link) => encode([[1, match], [2, side], [3, link]]);

// Matches.Execute with one of a player's own plays (the Command's field number and its
// value: a Side, or a Roll's bytes). A nested message is bytes on the wire, so the flat
// encoder serves: Roll is {1: side, 3: link} (dice left empty: the server draws them).
const COMMAND = { roll: 4, double: 6, take: 7, pass: 8, press: 9 };
const rollMessage = (side, link) => encode([[1, side], [3, link]]);
const executeRequest = (match, command, value) => encode([[1, match], [2, encode([[COMMAND[command], value]])]]);

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

// Calls `path` with `request` and yields each response message's bytes.
async function* call(path, request, signal, headers = {}) {
  const response = await fetch(path, {
    method: "POST",
    body: frame(request),
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
      yield body;
    }
  }
}

async function unary(path, request, schema) {
  for await (const bytes of call(path, request)) return decode(bytes, schema);
  throw new Error("no reply");
}


export { utf8, utf8Encode, decode, encode, call, unary, GrpcError, MatchState, MatchUpdate, Tournament,
  ListTournamentsResponse, ListMatchesResponse, DrawView, ExportLine, ExportMatchResponse, GetCommitmentResponse,
  commitRequest, revealRequest, commitChainRequest, giveLinkRequest, rollMessage, executeRequest, SIDE_A, SIDE_B };
