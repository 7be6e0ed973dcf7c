/** `npm run sidecar`: serves a tree like Weblate and answers the language and translation writes by editing the content. */
import { defineCommand, integerFlag, runIfMain } from '../src/cli/command.ts';
import { contentFolder, outFolder } from '../src/cli/folders.ts';
import { countOf } from '../src/cli/progress.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { SETTINGS_OPTIONS, settingsOverrides } from '../src/cli/settings-options.ts';
import { formatContentErrors, UsageError } from '../src/errors.ts';
import { KEY_FAILURES, loadKeys, TOKENS_VARIABLE } from '../src/sidecar/auth.ts';
import { startSidecar } from '../src/sidecar/sidecar.ts';

export const command = defineCommand({
  name: 'sidecar',
  description:
    "Serve a content folder's tree as Weblate serves its API, 4.x or 2026.8 (GET, HEAD, OPTIONS), and answer POST, PUT, PATCH and " +
    'DELETE on languages and DELETE on translations by editing the YAML and updating the tree.',
  options: {
    content: {
      type: 'string',
      valueName: 'DIR',
      description: 'content folder to serve and edit',
      default: 'content',
    },
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'output folder of the tree (built or brought up to date at start)',
      default: 'dist',
    },
    port: {
      type: 'string',
      valueName: 'N',
      description: 'port to listen on; 0 picks a free one',
      default: '8081',
    },
    bind: {
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to listen on',
      default: '127.0.0.1',
    },
    'tokens-file': {
      type: 'string',
      valueName: 'FILE',
      description: `API keys, one a line (# comments); also read from $${TOKENS_VARIABLE}`,
    },
    'key-failures': {
      type: 'string',
      valueName: 'N',
      description:
        'wrong keys one client address may send in a minute before it is answered 429 (0: no limit)',
      default: String(KEY_FAILURES),
    },
    'request-timeout': {
      type: 'string',
      valueName: 'SECONDS',
      description:
        'how soon a client must send a whole request (a 408 after that); its headers within half of it',
      default: '20',
    },
    'read-only': { type: 'boolean', description: 'refuse every write (then no key is needed)' },
    force: {
      type: 'boolean',
      description: 'replace the output folder even when it holds files this tool did not write',
    },
    rebuild: {
      type: 'boolean',
      description:
        'rewrite the tree whole when it was built with other settings than these (else the sidecar refuses)',
    },
    'strict-lists': {
      type: 'boolean',
      description:
        'answer a write only once /api/translations/ and /api/components/ are rewritten too (by default they follow once writes pause)',
    },
    ...SETTINGS_OPTIONS,
  },
  renamed: { host: 'bind' },
  epilog:
    'Example:\n  WEBLATE_SNAPSHOT_TOKENS=$(openssl rand -hex 24) npm run sidecar -- \\\n' +
    '    --content content --out dist --base-url http://127.0.0.1:8081 --port 8081',
  async run(args, io) {
    const port = parsePort(args.port);
    const keyFailures = integerFlag('key-failures', args['key-failures'], 0, 1_000_000);
    const requestTimeout = integerFlag('request-timeout', args['request-timeout'], 2, 3600);
    const content = contentFolder(args.content);
    const out = outFolder(args.out);
    const loaded = await loadKeys({
      file: args['tokens-file'],
      variable: io.env[TOKENS_VARIABLE],
      forbidden: [content, out],
    });
    if (!loaded.ok) throw new UsageError(loaded.message);
    for (const warning of loaded.warnings ?? []) io.err(`${warning}\n`);
    const { keys } = loaded;
    const started = await startSidecar({
      contentDir: content,
      outDir: out,
      force: args.force,
      rebuild: args.rebuild,
      settings: settingsOverrides(args),
      bind: args.bind,
      port,
      keys,
      readOnly: args['read-only'],
      keyFailures,
      strictLists: args['strict-lists'],
      requestTimeoutMs: requestTimeout * 1000,
      log: io.err,
    });
    if (!started.ok) {
      io.err(
        `${started.errors ? `${formatContentErrors(started.errors)}\n` : ''}${started.message}\n`,
      );
      return 1;
    }
    const { sidecar } = started;
    // Listening before the line that says so: a stop sent on reading it is never missed.
    const stopped = stopSignal(io);
    const access = args['read-only']
      ? 'read-only: every write refused'
      : keys.length === 1
        ? 'writes need the API key'
        : `writes need one of ${countOf(keys.length, 'API key')}`;
    io.out(
      `Sidecar serving ${content}/ (tree in ${out}/) at ${sidecar.url} (${access}; Ctrl+C to stop)\n`,
    );
    await stopped;
    await sidecar.close();
    return 0;
  },
});

await runIfMain(import.meta, command);
