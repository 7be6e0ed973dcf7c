/** `npm run sidecar`: serves a tree like Weblate and answers the language and translation writes by editing the content. */
import { readFile, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { defineCommand, runMain } from '../src/cli/command.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { SITE_OPTIONS, siteOverrides } from '../src/cli/site-options.ts';
import { formatContentErrors, UsageError } from '../src/errors.ts';
import { parseTokensFile, parseTokensVariable, TOKENS_VARIABLE } from '../src/sidecar/auth.ts';
import { startSidecar } from '../src/sidecar/sidecar.ts';

const command = defineCommand({
  name: 'sidecar',
  description:
    'Serve a content folder\'s tree as Weblate 4.x serves its API (GET, HEAD, OPTIONS) and answer POST, PUT, PATCH and ' +
    'DELETE on languages and DELETE on translations by editing the YAML and updating the tree.',
  options: {
    content: { type: 'string', valueName: 'DIR', description: 'content folder to serve and edit', default: 'content' },
    out: { type: 'string', valueName: 'DIR', description: 'output folder of the tree (built or brought up to date at start)', default: 'dist' },
    port: { type: 'string', valueName: 'N', description: 'port to listen on; 0 picks a free one', default: '8081' },
    host: { type: 'string', valueName: 'ADDRESS', description: 'address to listen on', default: '127.0.0.1' },
    'tokens-file': { type: 'string', valueName: 'FILE', description: `API keys, one a line (# comments); also read from $${TOKENS_VARIABLE}` },
    'read-only': { type: 'boolean', description: 'refuse every write (then no key is needed)' },
    ...SITE_OPTIONS,
  },
  epilog:
    'Example:\n  WEBLATE_SNAPSHOT_TOKENS=s3cret npm run sidecar -- --content content --out dist --base-url http://127.0.0.1:8081 --port 8081',
  async run(args, io) {
    const port = parsePort(args.port);
    const keys = await readKeys(args['tokens-file'], [args.content, args.out]);
    const started = await startSidecar({
      contentDir: args.content, outDir: args.out, site: siteOverrides(args), host: args.host, port, keys, readOnly: args['read-only'], log: io.err,
    });
    if (!started.ok) {
      io.err(`${started.errors ? `${formatContentErrors(started.errors)}\n` : ''}${started.message}\n`);
      return 1;
    }
    const { sidecar } = started;
    const access = args['read-only'] ? 'read-only' : `${keys.length} API key${keys.length === 1 ? '' : 's'}`;
    io.out(`Sidecar serving ${args.content}/ (tree in ${args.out}/) at ${sidecar.url} with ${access} (Ctrl+C to stop)\n`);
    await stopSignal();
    await sidecar.close();
    return 0;
  },
});

/** Keys from the tokens file and the environment; the file may not sit inside the content or output folder. */
async function readKeys(file: string | undefined, folders: string[]): Promise<string[]> {
  const keys: string[] = [];
  if (file !== undefined) {
    const real = await realpath(file).catch(() => {
      throw new UsageError(`--tokens-file ${file} cannot be read`);
    });
    for (const folder of folders) {
      const inside = await realpath(folder).then((dir) => real.startsWith(dir + sep), () => real.startsWith(resolve(folder) + sep));
      if (inside) throw new UsageError(`--tokens-file must not be inside ${folder}/ (keys never live with the content or the tree)`);
    }
    const parsed = parseTokensFile(await readFile(real, 'utf8'), file);
    if (!parsed.ok) throw new UsageError(parsed.message);
    keys.push(...parsed.keys);
  }
  const variable = process.env[TOKENS_VARIABLE];
  if (variable !== undefined) {
    const parsed = parseTokensVariable(variable);
    if (!parsed.ok) throw new UsageError(parsed.message);
    keys.push(...parsed.keys);
  }
  return keys;
}

await runMain(command);
