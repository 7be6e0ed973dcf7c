/**
 * What the benchmark's steps share: running a measured step in a process of
 * its own (bench/child.ts) or in the packed tool, starting a server script and waiting for the URL
 * it prints, flushing the disk between steps (or emptying the page cache), deleting trees, and the
 * counter the rebuilds and the mirror refresh change.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { installOffline, packCopy, ROOT, userEnv } from './package.ts';

const run = promisify(execFile);

const TSX = ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
export { ROOT };
/**
 * Whether this is a compiled copy of the bench (the tests', test/support/compile.ts) rather than
 * the sources `npm run bench` runs through tsx.
 */
const COMPILED = import.meta.url.endsWith('.js');
/** The node flags that load the bench's TypeScript: tsx's for the sources, none compiled. */
export const LOADER = COMPILED ? [] : TSX;

/**
 * Node's arguments that start a script of the repository (`bench/child.ts`, `scripts/sidecar.ts`)
 * as the bench itself was started: the source through tsx under `npm run bench`, the compiled
 * copy beside this one with plain node in the tests, which then start no tsx.
 */
export function scriptArgs(path: string): string[] {
  return COMPILED
    ? [fileURLToPath(new URL(`../${path.replace(/\.ts$/, '.js')}`, import.meta.url))]
    : [...TSX, join(ROOT, path)];
}

/** Runs a step of bench/child.ts in a process of its own; its last line of output (JSON). */
export async function child(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  // The floor's untimed reads and deletions run 32 at a time; the build keeps Node's defaults, as users have them.
  const env = {
    ...process.env,
    ...(args[0] === 'floor' ? { UV_THREADPOOL_SIZE: '32' } : {}),
    ...extraEnv,
  };
  const { stdout } = await run(process.execPath, [...scriptArgs('bench/child.ts'), ...args], {
    cwd: ROOT,
    maxBuffer: 1 << 26,
    env,
  });
  return stdout.trim().split('\n').pop()!;
}

let packedTool: Promise<string> | null = null;

/** Times `bin` (an installed weblate-snapshot, or the repository's bin/) instead of packing this repository. */
export function timeTool(bin: string): void {
  packedTool = Promise.resolve(bin);
}

/**
 * `weblate-snapshot <command> args` from the packed tool, as a user or a scheduled job who
 * installed the package runs it, timed from spawn to exit, with its peak RSS (the kernel's
 * high-water mark, read every 0.1 s while it runs; 0 without /proc). The tool is packed and
 * installed once per run, untimed, into a temporary folder (bench/package.ts).
 */
export async function packedCommand(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ ms: number; stdout: string; peakRssKiB: number }> {
  const bin = await (packedTool ??= installPackedTool());
  const started = performance.now();
  const running = run(process.execPath, [bin, command, ...args], {
    cwd: ROOT,
    env: { ...userEnv(), ...env },
    maxBuffer: 1 << 26,
  });
  let peakRssKiB = 0;
  const pid = running.child.pid;
  // Sampled while the process runs: the bench may time with timers, a test may not.
  const sampler = setInterval(() => (peakRssKiB = Math.max(peakRssKiB, highWaterMark(pid))), 100);
  try {
    const { stdout } = await running;
    return { ms: performance.now() - started, stdout, peakRssKiB };
  } finally {
    clearInterval(sampler);
  }
}

/** The bin the run times: the one `--tool` names, else this repository packed and installed. */
export function toolBin(): Promise<string> {
  return (packedTool ??= installPackedTool());
}

/** The folder the packed tool is installed in (its modules are among what a cold start reads). */
export async function packedToolDir(): Promise<string> {
  return dirname(dirname(await (packedTool ??= installPackedTool())));
}

/**
 * Empties the page cache before a timed step, as a fresh runner starts: all of it when the bench
 * may (as root, through /proc/sys/vm/drop_caches), else the cached pages of each file under
 * `dirs` (`dd iflag=nocache`, which asks the kernel to drop them). `BENCH_COLD_CACHE=files` asks
 * for the latter only (the tests: the machine's cache is not theirs to drop). Says which it did.
 */
export async function coldCache(dirs: readonly string[]): Promise<string> {
  await settle();
  try {
    if (process.env.BENCH_COLD_CACHE !== 'files') {
      writeFileSync('/proc/sys/vm/drop_caches', '1');
      return 'page cache dropped (/proc/sys/vm/drop_caches)';
    }
  } catch {
    // Not root, or /proc/sys is read-only: file by file.
  }
  const script = 'for f; do dd if="$f" iflag=nocache count=0 status=none; done';
  for (const dir of dirs)
    if (existsSync(dir))
      await run('find', [dir, '-type', 'f', '-exec', 'sh', '-c', script, '_', '{}', '+']);
  return `pages of the mirror, its state folder and the tool dropped, file by file (dd iflag=nocache)`;
}

/** The peak RSS of a running process in KiB (VmHWM); 0 once it is gone or without /proc. */
export function highWaterMark(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function installPackedTool(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wsnap-bench-tool-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return installOffline(await packCopy(dir), join(dir, 'app'));
}

/** Flushes dirty pages so that each timed step starts from the same state of the disk. */
export async function settle(): Promise<void> {
  await run('sync');
}

export async function removeTree(path: string): Promise<void> {
  if (existsSync(path)) await run('rm', ['-rf', path]);
}

/** A component of the synthetic instance, by its project's and its own slug. */
interface NamedComponent {
  project: string;
  component: string;
}

/** The component the rebuilds and the store runs change a counter of. */
const CHANGED_IN_CONTENT: NamedComponent = { project: 'project-00001', component: 'component-002' };
/** The component the mirror refresh and the count of requests change upstream. */
export const CHANGED_UPSTREAM: NamedComponent = {
  project: 'project-00002',
  component: 'component-003',
};

/** `project/component`, as the API's paths name a component. */
export function componentPath({ project, component }: NamedComponent): string {
  return `${project}/${component}`;
}

export function firstComponent(content: string): string {
  const { project, component } = CHANGED_IN_CONTENT;
  return join(content, 'projects', project, 'components', `${component}.yaml`);
}

/**
 * Why a synthetic instance is too small for the steps a run takes, or null: each step that
 * changes a counter changes it in a component named above, which the instance must hold.
 */
export function scaleTooSmall(
  scale: { projects: number; components: number },
  steps: { buildOnly?: boolean; storeOnly?: string | undefined },
): string | null {
  if (steps.buildOnly) return null;
  const [projects, components, named] = steps.storeOnly
    ? [1, 2, CHANGED_IN_CONTENT]
    : [2, 3, CHANGED_UPSTREAM];
  if (scale.projects >= projects && scale.components >= components) return null;
  return (
    `this run changes a counter of ${componentPath(named)}: give --projects ${projects} ` +
    `--components ${components} or more (got ${scale.projects} and ${scale.components}), ` +
    'or --build-only'
  );
}

export function bumpFirstCounter(text: string): string {
  return text.replace(
    /(\n {4}translated: )(\d+)/,
    (_, prefix: string, value: string) => `${prefix}${Math.max(0, Number(value) - 1)}`,
  );
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts a script that prints the URL it serves at, and waits for that line. */
export function startServer(args: string[], env: Record<string, string>): Promise<RunningServer> {
  const [script, ...rest] = args as [string, ...string[]];
  const process_: ChildProcess = spawn(process.execPath, [...scriptArgs(script), ...rest], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/\S+\/api\/)/.exec(output);
      if (match) {
        process_.stdout!.off('data', onData);
        resolvePromise({
          url: match[1]!,
          stop: () =>
            new Promise<void>((done) => {
              process_.once('exit', () => done());
              process_.kill('SIGTERM');
            }),
        });
      }
    };
    process_.stdout!.on('data', onData);
    process_.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process_.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${output}`)));
  });
}
