/**
 * The sidecar as tests run it: a real child process over a temporary copy of
 * a fixture, on a free loopback port read from what it prints; requests over
 * real HTTP; and the check that the tree on disk is exactly a fresh build of
 * the content as it then stands.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import fg from 'fast-glob';
import { parse as parseYaml } from 'yaml';
import { expect } from 'vitest';
import type { SettingsOverrides } from '../../src/resolve/resolve.ts';
import { childOutput } from '../support/child-output.ts';
import { startCli } from '../support/run-cli.ts';
import { buildInMemory, FIXTURES, readTree, scriptArgs, tempDir } from '../helpers.ts';

export { rawBody } from '../e2e/servers.ts';

export const KEY = 'wlu_test-key-00001';
export const OTHER_KEY = 'wlp_second-key-0002';
export const AUTH = { Authorization: `Token ${KEY}` };
export const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };

export interface Workspace {
  dir: string;
  content: string;
  out: string;
}

/** A temporary folder holding a copy of a fixture's content (`content/`) and room for its tree (`dist/`). */
export function workspace(fixture = 'features'): Workspace {
  const dir = tempDir('wsnap-sidecar-');
  const content = join(dir, 'content');
  cpSync(join(FIXTURES, `${fixture}/content`), content, { recursive: true });
  return { dir, content, out: join(dir, 'dist') };
}

export interface RunningSidecar {
  child: ChildProcess;
  /** The API root: `http://127.0.0.1:PORT/mirror/api/`. */
  api: string;
  origin: string;
  /** A URL of the tree's links, on the sidecar's own origin. */
  local(url: string): string;
  output(): string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, and wait for the process to be gone. */
  kill(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  /** Let instance-wide lists follow after the answer, as the sidecar does by default. */
  deferLists?: boolean;
  env?: Record<string, string>;
}

/** Starts `npm run sidecar`'s script on port 0 and waits for the URL it prints (or its exit). */
export async function startSidecar(
  space: Workspace,
  options: StartOptions = {},
): Promise<RunningSidecar> {
  const args = [...scriptArgs('sidecar'), ...sidecarArgs(space, options)];
  const env = { ...process.env, ...sidecarEnv(options) };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output = childOutput(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const running = {
    child,
    output: output.text,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    const [, api] = await output.waitFor(SERVING, 'URL');
    return { ...running, ...servedAt(api!) };
  } catch {
    await running.kill();
    throw new Error(`the sidecar did not start:\n${output.text()}`);
  }
}

/** The sidecar as a test needs it beside what it is about (the upstream of a pull or a mirror). */
export interface UpstreamSidecar {
  api: string;
  origin: string;
  local(url: string): string;
  /** Stops it, as SIGTERM does, and its exit code. */
  stop(): Promise<number>;
}

/**
 * The sidecar command, as startSidecar starts it, run in the test's own process: for a test
 * about the pull or the mirror that reads it, not about the sidecar (no node start and cold code
 * for each, some 40 in a run).
 */
export async function startUpstreamSidecar(
  space: Workspace,
  options: StartOptions = {},
): Promise<UpstreamSidecar> {
  const running = startCli('sidecar', sidecarArgs(space, options), { env: sidecarEnv(options) });
  const stop = async () => (await running.stop()).code;
  try {
    const [, api] = await running.waitFor(SERVING);
    return { stop, ...servedAt(api!) };
  } catch {
    await stop();
    throw new Error(`the sidecar did not start:\n${running.output()}`);
  }
}

/** The line the sidecar prints once it listens, and its API root. */
const SERVING = / at (http:\/\/127\.0\.0\.1:\d+\S*\/api\/) /;

function sidecarArgs(space: Workspace, options: StartOptions): string[] {
  // Tests compare the tree with a fresh build as soon as a write is answered: every list must be written by then.
  const strict = options.deferLists ? [] : ['--strict-lists'];
  return [
    ...['--content', space.content, '--out', space.out, '--port', '0'],
    ...strict,
    ...(options.args ?? []),
  ];
}

function sidecarEnv(options: StartOptions): Record<string, string> {
  return { WEBLATE_SNAPSHOT_TOKENS: `${KEY},${OTHER_KEY}`, ...options.env };
}

function servedAt(api: string) {
  const origin = new URL(api).origin;
  return { api, origin, local: (url: string) => origin + url.slice(new URL(url).origin.length) };
}

export interface Served {
  status: number;
  headers: Headers;
  text: string;
}

/** One request; the body a JSON value (sent as JSON) or text. */
export async function call(
  url: string,
  method = 'GET',
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Served> {
  const init: RequestInit = { method, headers, redirect: 'manual' };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A JSON answer: its status, Content-Type and body. */
export function expectJson(served: Served, status: number, body: unknown): void {
  expect({
    status: served.status,
    type: served.headers.get('content-type'),
    body: JSON.parse(served.text),
  }).toEqual({
    status,
    type: 'application/json',
    body,
  });
}

/**
 * Sends bytes as they are on a new connection (no client library to refuse
 * or normalize them) and returns the status and the response text.
 */
export function rawRequest(
  origin: string,
  head: string,
  body: Buffer | string = '',
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((done, failed) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? socket.destroy() : failed(error),
    );
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.write(
      Buffer.concat([
        Buffer.from(head, 'latin1'),
        Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
      ]),
    );
  });
}

/** The tree on disk is byte for byte a fresh full build of the content as it stands (the manifest aside). */
export async function expectTreeOfContent(
  space: Workspace,
  settings: SettingsOverrides = {},
): Promise<void> {
  const fresh = await buildInMemory(space.content, settings);
  expect(fresh.report.errors).toEqual([]);
  const tree = readTree(space.out);
  expect([...tree.keys()].sort()).toEqual([...fresh.files.keys()].sort());
  for (const [path, text] of fresh.files) expect(tree.get(path), path).toBe(text);
}

/** Every YAML file of the content and every JSON file of the tree parses. */
export async function expectEveryFileParses(space: Workspace): Promise<number> {
  const yamlFiles = await fg('**/*.yaml', { cwd: space.content, dot: true });
  const jsonFiles = await fg('**/*.json', { cwd: space.out, dot: true });
  for (const file of yamlFiles)
    expect(() => parseYaml(readFileSync(join(space.content, file), 'utf8')), file).not.toThrow();
  for (const file of jsonFiles)
    expect(() => JSON.parse(readFileSync(join(space.out, file), 'utf8')), file).not.toThrow();
  return yamlFiles.length + jsonFiles.length;
}
