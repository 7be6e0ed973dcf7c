/**
 * The body of the upstream served from memory (bench/model-upstream.ts): the
 * content folder given opened once, then served on 127.0.0.1 and the port
 * given (0: a free one). Prints the API root's URL and how long the content
 * took to open once it listens; stops on SIGTERM.
 *
 *   node --import tsx bench/model-upstream-child.ts CONTENT PORT
 */
import { openContent } from '../src/resolve/open.ts';
import { serveModel } from './model-upstream.ts';

const [content, port] = process.argv.slice(2);
const started = performance.now();
const upstream = await serveModel(await openModel(content!), Number(port ?? '0'));
const openMs = performance.now() - started;
process.stdout.write(`${upstream.url} opened in ${openMs.toFixed(0)} ms\n`);
process.once('SIGTERM', () => {
  void upstream.close().then(() => process.exit(0));
});

/** The model alone: the checked files the opening also returns are let go. */
async function openModel(dir: string) {
  const opened = await openContent(dir);
  if (!opened.ok) throw new Error(`the content has ${opened.errors.length} errors`);
  return opened.model;
}
