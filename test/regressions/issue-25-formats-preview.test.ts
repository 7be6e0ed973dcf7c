/**
 * Issue 25, item 2: the preview and the sidecar answer `?format=csv` and `?format=json-flat` of
 * the statistics of a 5.10 tree with the files beside the JSON, CSV typed as Weblate types it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, scriptArgs, tempDir } from '../helpers.ts';
import { buildFor, freePort, get, startServer, type Started } from '../e2e/servers.ts';
import { startSidecar, workspace, type RunningSidecar } from '../sidecar/support.ts';

const CSV_TYPE = 'text/csv; charset=utf-8';
const STATISTICS = '/api/translations/hello/app/cs/statistics/';
const COMPONENT_PAGE_2 = '/api/components/hello/app/statistics/~page/2/';

describe('the preview of a 5.10 tree', () => {
  const out = join(tempDir('wsnap-formats-preview-'), 'dist');
  let origin = '';
  let server: Started | undefined;
  const file = (path: string) => readFileSync(join(out, path), 'utf8');

  beforeAll(async () => {
    const port = await freePort();
    origin = (await buildFor(join(FIXTURES, 'release-5.10/content'), port, out)).origin;
    server = await startServer(
      process.execPath,
      [...scriptArgs('serve'), '--out', out, '--port', String(port)],
      `${origin}/`,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers ?format=csv with the CSV file, typed text/csv', async () => {
    const answer = await get(`${origin}/mirror${STATISTICS}?format=csv`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(CSV_TYPE);
    expect(answer.text).toBe(file(`${STATISTICS.slice(1)}index.csv`));
    expect(answer.text).toMatch(/^approved,approved_chars,.*,url\r\n0,0,0\.0,.*\r\n$/);
  });

  it('answers ?format=json-flat of a page with its results alone', async () => {
    const answer = await get(`${origin}/mirror${COMPONENT_PAGE_2}?format=json-flat`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const page = JSON.parse(file(`${COMPONENT_PAGE_2.slice(1)}index.json`)) as { results: unknown };
    expect(JSON.parse(answer.text)).toEqual(page.results);
  });
});

describe('the sidecar of a 5.10 tree', () => {
  let sidecar: RunningSidecar | undefined;
  const space = workspace('release-5.10');

  beforeAll(async () => {
    sidecar = await startSidecar(space);
  });
  afterAll(async () => {
    await sidecar?.stop();
  });

  it('answers ?format=csv and ?format=json-flat of the statistics with their files', async () => {
    const api = sidecar!.api.replace(/\/api\/$/, '');
    const csv = await get(`${api}${STATISTICS}?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe(CSV_TYPE);
    expect(csv.text).toBe(readFileSync(join(space.out, `${STATISTICS.slice(1)}index.csv`), 'utf8'));
    const flat = await get(`${api}${COMPONENT_PAGE_2}?format=json-flat`);
    expect(flat.status).toBe(200);
    expect(flat.headers.get('content-type')).toBe('application/json');
    expect(flat.text.startsWith('[{"total":')).toBe(true);
    expect((await get(`${api}/api/projects/?format=csv`)).status).toBe(404);
  });
});
