/** `npm run serve`: previews a built tree over HTTP, as a well-configured host serves it. */
import { defineCommand, runIfMain } from '../src/cli/command.ts';
import { parsePort, stopSignal } from '../src/cli/serving.ts';
import { linkNote, startPreview } from '../src/preview/preview.ts';

export const command = defineCommand({
  name: 'serve',
  description:
    "Preview a built tree over HTTP: serve-handler with the tree's serve.json, plus what serve cannot do " +
    '(language codes with @, ?page=N, JSON 404 and 405 answers). ' +
    "The tree's links are answered as the preview's address; its files stay as built.",
  options: {
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'built output folder to serve',
      default: 'dist',
    },
    port: {
      type: 'string',
      valueName: 'N',
      description: 'port to listen on; 0 picks a free one',
      default: '8080',
    },
    bind: {
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to listen on',
      default: '127.0.0.1',
    },
  },
  epilog: 'Example:\n  npm run build && npm run serve -- --out dist --port 8080',
  async run(args, io) {
    const started = await startPreview({
      outDir: args.out,
      bind: args.bind,
      port: parsePort(args.port),
      log: io.err,
    });
    if (!started.ok) {
      io.err(`${started.message}\n`);
      return 1;
    }
    const { preview } = started;
    // Listening before the line that says so: a stop sent on reading it is never missed.
    const stopped = stopSignal(io);
    io.out(`Serving ${args.out}/ at ${preview.url} (Ctrl+C to stop)\n`);
    const note = linkNote(preview);
    if (note) io.out(`${note}\n`);
    await stopped;
    await preview.close();
    return 0;
  },
});

await runIfMain(import.meta, command);
