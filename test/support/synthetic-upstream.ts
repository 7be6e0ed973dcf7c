/**
 * The upstream Weblate of the large-pull tests: a synthetic instance served from memory on
 * 127.0.0.1, as the benchmark's upstream serves it, with a hook through which a test fails,
 * holds or spoils the answers it is about. Stopped after each test that started one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { createModelAnswerer } from '../../bench/model-upstream.ts';
import { writeSyntheticContent, type SyntheticScale } from '../../bench/synthetic.ts';
import { openContent } from '../../src/resolve/open.ts';
import { tempDir } from '../helpers.ts';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

type Answer = ReturnType<ReturnType<typeof createModelAnswerer>>;

/** What a test does with a request (its path, without the query) first: true once it has answered it. */
export type Intercept = (
  path: string,
  response: ServerResponse,
  answer: () => Answer,
) => boolean | Promise<boolean>;

/** Registers the stop after each test; returns what starts an upstream and gives its API root. */
export function useSyntheticUpstream(): (
  scale: SyntheticScale,
  intercept?: Intercept,
) => Promise<string> {
  const running: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  return async (scale, intercept = () => false) => {
    const content = tempDir();
    await writeSyntheticContent(content, scale);
    const opened = await openContent(content);
    if (!opened.ok) throw new Error(`the synthetic content has ${opened.errors.length} errors`);
    const answerer = createModelAnswerer(opened.model);
    const server = await startLoopbackServer(
      async (request: IncomingMessage, response: ServerResponse) => {
        const url = request.url ?? '/';
        const answer = () => answerer(request.method ?? 'GET', url);
        if (await intercept(url.split('?')[0]!, response, answer)) return;
        const answered = answer();
        response.writeHead(answered.status, { 'Content-Type': answered.contentType });
        response.end(answered.body);
      },
    );
    running.push(server);
    return `${server.url}/api/`;
  };
}
