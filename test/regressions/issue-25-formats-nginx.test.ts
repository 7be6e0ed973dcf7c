/**
 * Issue 25, item 2: from Weblate 5.10 the statistics answer `?format=csv` (djangorestframework-csv:
 * sorted header, CRLF) and `?format=json-flat` (a page's `results` alone). A real nginx with the
 * configuration the build wrote answers both with the files beside the JSON, with and without the
 * status site, and still refuses the formats elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers.ts';
import {
  buildFor,
  freePort,
  get,
  type BuiltFixture,
  type Started,
  startNginxForTree,
} from '../e2e/servers.ts';

const nginxFound = spawnSync('nginx', ['-v']).status === 0;
const CONTENT = join(FIXTURES, 'release-5.10/content');

/** The header djangorestframework-csv writes for a statistics object: its keys, sorted. */
const STATISTICS_CSV_HEADER =
  'approved,approved_chars,approved_chars_percent,approved_percent,approved_words,' +
  'approved_words_percent,code,comments,failing,failing_percent,fuzzy,fuzzy_chars,' +
  'fuzzy_chars_percent,fuzzy_percent,fuzzy_words,fuzzy_words_percent,last_change,name,' +
  'readonly,readonly_chars,readonly_chars_percent,readonly_percent,readonly_words,' +
  'readonly_words_percent,recent_changes,suggestions,total,total_chars,total_words,' +
  'translate_url,translated,translated_chars,translated_chars_percent,translated_percent,' +
  'translated_words,translated_words_percent,url\r\n';

describe.runIf(nginxFound || process.env.CI).each([
  ['with the status site', []],
  ['without the status site', ['--pages', 'off']],
])('nginx of a 5.10 tree %s', (_, flags) => {
  const work = tempDir('wsnap-formats-nginx-');
  const out = join(work, 'dist');
  let built: BuiltFixture;
  let server: Started | undefined;
  const api = () => `${built.origin}/mirror/api`;
  const file = (path: string) => readFileSync(join(out, path));

  beforeAll(async () => {
    built = await buildFor(CONTENT, await freePort(), out, flags);
    server = await startNginxForTree(out, join(work, 'nginx'), built.origin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers a translation's statistics ?format=csv with the CSV Weblate renders", async () => {
    const answer = await get(`${api()}/translations/hello/app/cs/statistics/?format=csv`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.text).toBe(
      STATISTICS_CSV_HEADER +
        '0,0,0.0,0.0,0,0.0,cs,0,0,0.0,0,0,0.0,0.0,0,0.0,2022-06-10T20:56:30.280562Z,Czech,' +
        '0,0,0.0,0.0,0,0.0,0,0,4,139,15,' +
        `${built.origin}/mirror/translate/hello/app/cs/,2,60,43.1,50.0,7,46.6,` +
        `${built.origin}/mirror/projects/hello/app/cs/\r\n`,
    );
  });

  it('answers ?format=json-flat of an object with its JSON, and of a page with its results', async () => {
    const object = await get(`${api()}/translations/hello/app/cs/statistics/?format=json-flat`);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('application/json');
    expect(Buffer.from(object.text)).toEqual(
      file('api/translations/hello/app/cs/statistics/index.json'),
    );
    const page = await get(`${api()}/components/hello/app/statistics/~page/2/?format=json-flat`);
    expect(page.status).toBe(200);
    const json = JSON.parse(
      file('api/components/hello/app/statistics/~page/2/index.json').toString(),
    ) as { results: unknown[] };
    expect(JSON.parse(page.text)).toEqual(json.results);
    expect(page.text.startsWith('[{"total":')).toBe(true);
  });

  it('answers ?format=csv of a page of component statistics with one row per item', async () => {
    const answer = await get(`${api()}/components/hello/app/statistics/?format=csv`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = answer.text.split('\r\n');
    expect(lines[0] + '\r\n').toBe(STATISTICS_CSV_HEADER);
    expect(lines.slice(1, -1).map((line) => line.split(',')[6])).toEqual(['en', 'it', 'de', 'fr']);
    expect(lines.at(-1)).toBe('');
  });

  it('refuses csv and json-flat where Weblate has no such renderer, and unknown formats', async () => {
    for (const url of [
      `${api()}/projects/?format=csv`,
      `${api()}/translations/hello/app/cs/?format=json-flat`,
      `${api()}/translations/hello/app/cs/statistics/?format=xml`,
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.headers.get('content-type'), url).toBe('application/json');
    }
    expect((await get(`${api()}/projects/hello/statistics/?format=json`)).status).toBe(200);
  });
});
