/**
 * Issue 24: the benchmark counts a pull's requests at a million translations
 * against an upstream served from memory (bench/model-upstream.ts), whose
 * tree would not fit the disk. What it serves must be what the sidecar over
 * the built tree serves: a full pull runs against the sidecar through the
 * feed front, which logs every path it asked, and each of those paths (and a
 * few the pull never asks, which answer errors) is asked of both, their
 * status, type and bytes compared.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedFront, type FeedFront } from '../../bench/feed-front.ts';
import { createModelAnswerer } from '../../bench/model-upstream.ts';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import type { Release } from '../../src/model/releases.ts';
import { defaultPullDeps, pull } from '../../src/pull/pull.ts';
import { openContent } from '../../src/resolve/open.ts';
import { tempDir } from '../helpers.ts';
import { call, startUpstreamSidecar, type UpstreamSidecar } from '../sidecar/support.ts';

const running: { sidecar?: UpstreamSidecar; front?: FeedFront } = {};

afterEach(async () => {
  await running.sidecar?.stop();
  await running.front?.close();
  running.sidecar = undefined;
  running.front = undefined;
});

/** Requests the pull never makes, answered by both with errors or other pages. */
const EXTRA_PATHS = [
  'projects/?page=2',
  'projects/?page=9',
  'projects/project-00009/',
  'components/project-00001/component-001/translations/?page=7',
  'components/?page=2',
  'translations/?page=3',
  'languages/',
  'users/',
  'projects/project-00001/statistics/?format=csv',
  'projects/project-00001/statistics/?format=xml',
];

describe('the upstream served from memory', () => {
  it.each<Release>(['4', '5.10', '2026.8'])(
    'answers every request of a full pull (%s) with the bytes the sidecar serves from the tree',
    async (weblateVersion) => {
      const dir = tempDir('wsnap-model-upstream-');
      const space = { dir, content: join(dir, 'content'), out: join(dir, 'dist') };
      // Three projects of a page size 2 so that lists have pages; categories from 5.0.
      await writeSyntheticContent(space.content, {
        projects: 3,
        components: 3,
        languages: 2,
        weblateVersion,
        pages: false,
      });
      running.sidecar = await startUpstreamSidecar(space, {
        args: ['--page-size', '2', '--read-only'],
      });
      const front = (running.front = await startFeedFront(running.sidecar.origin));
      const apiPath = new URL(running.sidecar.api).pathname;
      const report = await pull(
        { from: `${front.url}${apiPath}`, outDir: join(dir, 'mirror'), http: { retries: 0 } },
        defaultPullDeps(),
      );
      expect(report.ok, JSON.stringify(report)).toBe(true);
      const opened = await openContent(space.content, { settings: { pageSize: 2 } });
      if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
      const answer = createModelAnswerer(opened.model);

      const asked = front.log.filter((path) => !path.includes('/api/changes/'));
      expect(asked.length).toBeGreaterThan(30);
      const origin = running.sidecar.origin;
      const paths = [...asked, ...EXTRA_PATHS.map((path) => `${apiPath}${path}`)];
      for (const path of new Set(paths)) {
        const served = await call(`${origin}${path}`);
        const answered = answer('GET', path);
        expect({ path, status: answered.status, text: answered.body.toString() }).toEqual({
          path,
          status: served.status,
          text: served.text,
        });
        expect(answered.contentType).toBe(served.headers.get('content-type'));
      }
    },
  );
});
