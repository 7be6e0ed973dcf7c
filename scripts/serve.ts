/** `npm run serve`: previews a built tree over HTTP, as a well-configured host serves it. */
import { defineCommand, runMain } from '../src/cli/command.ts';
import { UsageError } from '../src/errors.ts';
import { linkHint, startPreview } from '../src/serve/preview.ts';

const command = defineCommand({
  name: 'serve',
  description:
    'Preview a built tree over HTTP: serve-handler with the tree\'s serve.json, plus what serve cannot do ' +
    '(language codes with @, ?page=N, JSON 404 and 405 answers).',
  options: {
    out: { type: 'string', valueName: 'DIR', description: 'built output folder to serve', default: 'dist' },
    port: { type: 'string', valueName: 'N', description: 'port to listen on; 0 picks a free one', default: '8080' },
    bind: { type: 'string', valueName: 'ADDRESS', description: 'address to listen on', default: '127.0.0.1' },
  },
  epilog: 'Example:\n  npm run build -- --base-url http://127.0.0.1:8080 && npm run serve -- --out dist --port 8080',
  async run(args, io) {
    const started = await startPreview({ outDir: args.out, bind: args.bind, port: parsePort(args.port), log: io.err });
    if (!started.ok) {
      io.err(`${started.message}\n`);
      return 1;
    }
    const { preview } = started;
    io.out(`Serving ${args.out}/ at ${preview.url} (Ctrl+C to stop)\n`);
    const hint = linkHint(preview);
    if (hint) io.out(`${hint}\n`);
    await stopSignal();
    await preview.close();
    return 0;
  },
});

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port expects a port number from 0 to 65535 (got "${text}")`);
  return port;
}

function stopSignal(): Promise<void> {
  return new Promise((stop) => {
    process.once('SIGINT', () => stop());
    process.once('SIGTERM', () => stop());
  });
}

await runMain(command);
