/**
 * The store the store target's in-memory runs publish to (issue 24), in a process of its own so
 * that its memory is not counted as the tool's: at 1,000,000 translations it holds about ten
 * million objects. It keeps, per object, a 16-byte hash of the key, the size and the MD5 in typed
 * arrays (an open-addressing table), and the bytes of the state and its lease. It outlives the
 * publishing processes, which connect to it on a loopback port, one after the other: each message
 * is its length and its V8 serialization. Uploads go to it in batches, a few batches ahead at
 * most; every other call waits for them.
 *
 *   node --import tsx bench/memory-store.ts   (forked by startMemoryStore)
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';
import type { ObjectStore } from '../src/deploy/store.ts';

interface MemoryStore extends ObjectStore {
  /** Calls made of the store (an upload is one, however it travels). */
  requests: number;
  /** Ends the connection once every call before it is answered. */
  disconnect(): Promise<void>;
}

interface RunningStore {
  /** `host:port` a publishing process connects to (connectMemoryStore). */
  address: string;
  /** The objects it holds and its process's peak RSS. */
  stats(): Promise<{ objects: number; maxRssKiB: number }>;
  stop(): Promise<void>;
}

/** Starts the store's process; `execArgv` loads TypeScript (tsx) as the caller's does. */
export async function startMemoryStore(execArgv: string[]): Promise<RunningStore> {
  const server = fork(new URL(import.meta.url).pathname, [], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (message: { port: number }) => resolve(message.port));
    server.once('exit', (code) => reject(new Error(`the memory store exited with ${code}`)));
  });
  return {
    address: `127.0.0.1:${port}`,
    stats: () =>
      new Promise((resolve) => {
        server.once('message', resolve);
        server.send('stats');
      }),
    stop: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.disconnect();
      await exited;
    },
  };
}

/** Connects to a store startMemoryStore started, maybe in another process. */
export async function connectMemoryStore(address: string): Promise<MemoryStore> {
  const [host, port] = address.split(':') as [string, string];
  const socket = connect(Number(port), host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return new StoreClient(socket);
}

// --- internal ---

/** Uploads sent in one message. */
const BATCH = 2048;
/** Batches sent and not yet taken in before an upload waits. */
const BATCHES_AHEAD = 4;
/** Where a state and its lease live: their bytes are kept. */
const STATE_FOLDER = '/.weblate-snapshot/';

type Request =
  | { op: 'puts'; items: [string, number, string][] }
  | { op: 'keep'; key: string; body: Uint8Array; md5: string; ifAbsent: boolean }
  | { op: 'get'; key: string }
  | { op: 'remove'; keys: string[] }
  | { op: 'list'; prefix: string };

class StoreClient implements MemoryStore {
  requests = 0;
  private batch: [string, number, string][] = [];
  private readonly answers = new Map<number, (value: unknown) => void>();
  /** Batches sent and not yet answered, oldest first. */
  private readonly ahead: Promise<unknown>[] = [];
  private next = 0;

  constructor(private readonly socket: Socket) {
    readMessages(socket, (message: { id: number; value: unknown }) => {
      this.answers.get(message.id)?.(message.value);
      this.answers.delete(message.id);
    });
  }

  async put(key: string, body: Buffer, metadata: { md5: string }): Promise<void> {
    this.requests++;
    if (key.includes(STATE_FOLDER)) {
      await this.call({ op: 'keep', key, body, md5: metadata.md5, ifAbsent: false });
      return;
    }
    // Every upload waits while the store is behind: the tool sees it as a store that takes its time.
    while (this.ahead.length >= BATCHES_AHEAD) await this.ahead[0];
    this.batch.push([key, body.length, metadata.md5]);
    if (this.batch.length >= BATCH) this.sendBatch();
  }

  async putIfAbsent(key: string, body: Buffer, metadata: { md5: string }): Promise<boolean> {
    this.requests++;
    return (await this.call({
      op: 'keep',
      key,
      body,
      md5: metadata.md5,
      ifAbsent: true,
    })) as boolean;
  }

  async get(key: string): Promise<Buffer | null> {
    this.requests++;
    const body = (await this.call({ op: 'get', key })) as Uint8Array | null;
    return body && Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  async remove(keys: readonly string[]): Promise<{ key: string; reason: string }[]> {
    this.requests++;
    await this.call({ op: 'remove', keys: [...keys] });
    return [];
  }

  async list(prefix: string) {
    this.requests++;
    const objects = (await this.call({ op: 'list', prefix })) as
      { key: string; etag: string; size: number }[] | string;
    if (typeof objects === 'string') throw new Error(objects);
    return { objects, next: null };
  }

  close(): void {}

  async disconnect(): Promise<void> {
    if (this.batch.length > 0) this.sendBatch();
    await Promise.all(this.ahead);
    await new Promise<void>((resolve) => this.socket.end(resolve));
  }

  /** Sends the uploads batched so far; the store answers each batch in turn. */
  private sendBatch(): void {
    const answered = this.send({ op: 'puts', items: this.batch });
    this.batch = [];
    this.ahead.push(answered);
    void answered.then(() => this.ahead.shift());
  }

  /** A call after the uploads before it (the connection keeps the order). */
  private call(request: Request): Promise<unknown> {
    if (this.batch.length > 0) this.sendBatch();
    return this.send(request);
  }

  private send(request: Request): Promise<unknown> {
    const id = this.next++;
    const answer = new Promise((resolve) => this.answers.set(id, resolve));
    writeMessage(this.socket, { id, ...request });
    return answer;
  }
}

function writeMessage(socket: Socket, message: unknown): void {
  const body = serialize(message);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  socket.write(length);
  socket.write(body);
}

/**
 * Calls `onMessage` with each whole message that arrives, in order. Chunks are joined once a
 * message is whole (a state's part is megabytes: joining at each chunk would copy it many times).
 */
function readMessages(socket: Socket, onMessage: (message: never) => void): void {
  let chunks: Buffer[] = [];
  let held = 0;
  let needed = 4;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    held += chunk.length;
    while (held >= needed) {
      let pending = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, held);
      needed = 4 + pending.readUInt32LE(0);
      if (held < needed) {
        chunks = [pending];
        break;
      }
      onMessage(deserialize(pending.subarray(4, needed)) as never);
      pending = pending.subarray(needed);
      chunks = pending.length > 0 ? [pending] : [];
      held = pending.length;
      needed = 4;
    }
  });
}

/** Keys by a 16-byte hash, with each object's size and MD5, in typed arrays that double when 60% full. */
class HashTable {
  count = 0;
  private capacity = 1 << 16;
  private hashes = new Uint32Array(this.capacity * 4);
  /** 0: empty, 1: used, 2: deleted. */
  private states = new Uint8Array(this.capacity);
  private sizes = new Uint32Array(this.capacity);
  private md5s = new Uint8Array(this.capacity * 16);
  private taken = 0;

  has(key: string): boolean {
    return this.states[this.slotOf(hashOf(key))] === 1;
  }

  set(key: string, size: number, md5: string): void {
    if ((this.taken + 1) * 5 > this.capacity * 3) this.grow();
    const hash = hashOf(key);
    const slot = this.slotOf(hash);
    if (this.states[slot] !== 1) {
      this.count++;
      if (this.states[slot] === 0) this.taken++;
    }
    this.states[slot] = 1;
    this.hashes.set(hash, slot * 4);
    this.sizes[slot] = size;
    this.md5s.set(Buffer.from(md5, 'base64').subarray(0, 16), slot * 16);
  }

  delete(key: string): void {
    const slot = this.slotOf(hashOf(key));
    if (this.states[slot] !== 1) return;
    this.states[slot] = 2;
    this.count--;
  }

  /** The key's slot, or the first free one on its probe path. */
  private slotOf(hash: Uint32Array): number {
    const mask = this.capacity - 1;
    let free = -1;
    for (let slot = hash[0]! & mask; ; slot = (slot + 1) & mask) {
      const state = this.states[slot];
      if (state === 0) return free >= 0 ? free : slot;
      if (state === 2) free = free >= 0 ? free : slot;
      else if (sameHash(this.hashes, slot, hash)) return slot;
    }
  }

  private grow(): void {
    const { hashes, states, sizes, md5s, capacity } = this;
    this.capacity = capacity * 2;
    this.hashes = new Uint32Array(this.capacity * 4);
    this.states = new Uint8Array(this.capacity);
    this.sizes = new Uint32Array(this.capacity);
    this.md5s = new Uint8Array(this.capacity * 16);
    this.taken = this.count;
    for (let old = 0; old < capacity; old++) {
      if (states[old] !== 1) continue;
      const hash = hashes.subarray(old * 4, old * 4 + 4);
      const slot = this.slotOf(hash);
      this.states[slot] = 1;
      this.hashes.set(hash, slot * 4);
      this.sizes[slot] = sizes[old]!;
      this.md5s.set(md5s.subarray(old * 16, old * 16 + 16), slot * 16);
    }
  }
}

function hashOf(key: string): Uint32Array {
  const digest = createHash('md5').update(key).digest();
  return new Uint32Array(digest.buffer, digest.byteOffset, 4).slice();
}

function sameHash(hashes: Uint32Array, slot: number, hash: Uint32Array): boolean {
  const at = slot * 4;
  return (
    hashes[at] === hash[0] &&
    hashes[at + 1] === hash[1] &&
    hashes[at + 2] === hash[2] &&
    hashes[at + 3] === hash[3]
  );
}

/** The store's side: answers each connection's requests in the order they came. */
function serve(): void {
  const table = new HashTable();
  const kept = new Map<string, { body: Uint8Array; md5: string }>();
  const answer = (request: Request): unknown => {
    switch (request.op) {
      case 'puts':
        for (const [key, size, md5] of request.items) table.set(key, size, md5);
        return null;
      case 'keep':
        if (request.ifAbsent && table.has(request.key)) return false;
        table.set(request.key, request.body.byteLength, request.md5);
        kept.set(request.key, { body: request.body, md5: request.md5 });
        return true;
      case 'get':
        return kept.get(request.key)?.body ?? null;
      case 'remove':
        for (const key of request.keys) {
          table.delete(key);
          kept.delete(key);
        }
        return null;
      case 'list':
        // Only the state's keys are kept whole: a listing of the published objects cannot be made.
        if (table.count > kept.size && !request.prefix.includes(STATE_FOLDER))
          return 'the bench store in memory lists only an empty store or the state';
        return [...kept]
          .filter(([key]) => key.startsWith(request.prefix))
          .map(([key, { body, md5 }]) => ({
            key,
            etag: Buffer.from(md5, 'base64').toString('hex'),
            size: body.byteLength,
          }));
    }
  };
  const listener = createServer((socket) =>
    readMessages(socket, (message: Request & { id: number }) =>
      writeMessage(socket, { id: message.id, value: answer(message) }),
    ),
  );
  listener.listen(0, '127.0.0.1', () => {
    const { port } = listener.address() as { port: number };
    process.send!({ port });
  });
  process.on('message', () =>
    process.send!({ objects: table.count, maxRssKiB: process.resourceUsage().maxRSS }),
  );
  // The bench disconnects when it is done with the store.
  process.on('disconnect', () => process.exit(0));
}

if (process.send && process.argv[1] === new URL(import.meta.url).pathname) serve();
