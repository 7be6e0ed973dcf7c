/**
 * Bad requests, drawn by fast-check from a fixed seed (a failure replays with
 * it): thousands of methods, request-targets (`..`, `%2F`, NUL bytes, huge
 * segments), headers and bodies sent as raw bytes to the real process. Never
 * a 5xx, every JSON answer parses, nothing outside the content and output
 * folders changes or leaks, and the tree ends as a fresh build of the content.
 */
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEveryFileParses,
  expectTreeOfContent,
  KEY,
  OTHER_KEY,
  rawBody,
  rawRequest,
  startSidecar,
  workspace,
  type RunningSidecar,
} from './support.ts';

/** Another seed replays another draw: FUZZ_SEED=123 npx vitest run test/sidecar/fuzz.test.ts */
const SEED = Number(process.env.FUZZ_SEED ?? 424242);
const REQUESTS = 2000;
const SECRET = 'outside-the-tree-7f3a';

describe('fuzzed requests', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  let outsideBefore: Map<string, string>;
  beforeAll(async () => {
    writeFileSync(join(space.dir, 'secret.json'), `{"secret":"${SECRET}"}\n`);
    mkdirSync(join(space.dir, 'languages'));
    writeFileSync(join(space.dir, 'languages/index.json'), `{"secret":"${SECRET}"}\n`);
    writeFileSync(join(space.dir, 'site.yaml'), `# ${SECRET}\n`);
    outsideBefore = await outsideFiles(space.dir);
    // Wrong keys come often among the fuzzed requests: none is throttled, so that every write status shows.
    sidecar = await startSidecar(space, { args: ['--key-failures', '0'] });
  });
  afterAll(async () => sidecar.stop());

  it(`answers ${REQUESTS} random requests (seed ${SEED}) without a 5xx, touching nothing outside its folders`, async () => {
    const requests = fc.sample(requestArbitrary, { seed: SEED, numRuns: REQUESTS });
    const statuses = new Map<number, number>();
    for (const [index, request] of requests.entries()) {
      const served = await rawRequest(sidecar.origin, request.head, request.body);
      const replay = `request ${index} of seed ${SEED}: ${JSON.stringify(request.head.slice(0, 300))}`;
      expect(served.status, replay).toBeGreaterThanOrEqual(200);
      expect(served.status, replay).toBeLessThan(500);
      expect(served.text, replay).not.toContain(SECRET);
      if (
        /\r\ncontent-type: application\/json\r\n/i.test(served.text) &&
        !request.head.startsWith('HEAD ')
      ) {
        expect(() => JSON.parse(rawBody(served.text)), replay).not.toThrow();
      }
      statuses.set(served.status, (statuses.get(served.status) ?? 0) + 1);
    }
    console.info(
      `statuses of ${REQUESTS} fuzzed requests: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // The draw reaches every kind of answer: reads, writes, refusals.
    for (const status of [200, 201, 204, 400, 401, 403, 404, 405, 413, 415])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    expect(await outsideFiles(space.dir)).toEqual(outsideBefore);
    const contentFiles = await fg('**/*', { cwd: space.content, dot: true });
    for (const file of contentFiles)
      expect(file).toMatch(
        /^(site\.yaml|languages\/[^/]+\.yaml|projects\/[^/]+\/(project\.yaml|components\/[^/]+\.yaml))$/,
      );
    await expectEveryFileParses(space);
    await expectTreeOfContent(space);
  });
});

// --- internal ---

/** Every file of the folder outside content/, dist/ and dist.state/, with its size, time and text. */
async function outsideFiles(dir: string): Promise<Map<string, string>> {
  const files = await fg('**/*', {
    cwd: dir,
    dot: true,
    ignore: ['content/**', 'dist/**', 'dist.state/**'],
  });
  return new Map(
    files.sort().map((file) => {
      const info = statSync(join(dir, file));
      return [file, `${info.size} ${info.mtimeMs} ${readFileSync(join(dir, file), 'utf8')}`];
    }),
  );
}

const segment = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'projects',
      'components',
      'translations',
      'languages',
      'alpha',
      'beta',
      'strings',
      'docs',
      'shared',
      'glossary',
      'cs',
      'de',
      'en',
      'ar',
      'he',
      'eo',
      'tlh_XX',
      'ca@valencia',
      'ca%40valencia',
      '~page',
      '2',
      '1',
      'statistics',
      'changes',
      'units',
      'repository',
      'lock',
      'links',
      'index.json',
      'users',
      'fr',
      'xx_new',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z]{2,3}_[A-Z]{2}$/) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E%2E',
      '%2F',
      '..%2F..',
      '..%2f..%2fsecret.json',
      '%5C',
      '\\',
      '%00',
      '\0',
      '%ZZ',
      '%',
      '',
      '%C3%A9',
      'é',
      '%252F',
      'a'.repeat(256),
      'b'.repeat(3000),
      '%0d%0a',
      ';',
      '?',
      '#',
      '..\\..',
      'secret.json',
      '%2e',
      '~',
      '%7Epage',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const query = fc.option(
  fc.constantFrom(
    'page=2',
    'page=0',
    'page=last',
    'page=-1',
    'page=abc',
    'page=99999999999999999999',
    'format=json',
    'format=api',
    'format=xml',
    'page=2&format=api',
    'page=%00',
    '',
    'page=1&page=3',
  ),
  { freq: 3 },
);

/** Paths of resources the fixture has (or had, or may get), under its base path. */
const resourcePath = fc.oneof(
  fc.constantFrom(
    '',
    'languages/',
    'languages/de/',
    'languages/cs/',
    'languages/eo/',
    'languages/tlh_XX/',
    'languages/ca@valencia/',
    'languages/en/',
    'languages/de/statistics/',
    'projects/',
    'projects/alpha/',
    'projects/alpha/languages/',
    'components/alpha/strings/',
    'translations/',
    'translations/alpha/strings/cs/',
    'translations/alpha/strings/en/',
    'translations/beta/docs/de/',
    'translations/beta/docs/en/',
    'translations/alpha/shared/de/',
    'translations/beta/empty/he/',
    'components/alpha/strings/lock/',
  ),
  fc.stringMatching(/^[a-z]{2,3}_[A-Z]{2}$/).map((code) => `languages/${code}/`),
);

const target = fc.oneof(
  {
    weight: 1,
    arbitrary: fc
      .tuple(resourcePath, query)
      .map(([path, q]) => `/mirror/api/${path}${q === null ? '' : `?${q}`}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          '/mirror/api/',
          '/mirror/api',
          '/api/',
          '/',
          '/mirror/',
          '',
          'http://127.0.0.1/mirror/api/',
          '/mirror/api/../',
        ),
        fc.array(segment, { maxLength: 6 }),
        fc.boolean(),
        query,
      )
      .map(
        ([prefix, segments, slash, q]) =>
          `${prefix}${segments.join('/')}${slash ? '/' : ''}${q === null ? '' : `?${q}`}`,
      ),
  },
);

const printable = fc.string({ unit: 'grapheme-ascii', maxLength: 40 });

const authorization = fc.option(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.constantFrom(
        `Token ${KEY}`,
        `Bearer ${OTHER_KEY}`,
        `token ${KEY}`,
        'Token wrong',
        'Token',
        `Token ${KEY} x`,
        'Basic abc',
        'Bearer ',
      ),
    },
    { weight: 1, arbitrary: printable },
  ),
  { freq: 4 },
);

const contentType = fc.option(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
        '',
      ),
    },
    { weight: 1, arbitrary: printable },
  ),
  { freq: 4 },
);

const languageFields = fc.record(
  {
    code: fc.oneof(
      fc.constantFrom(
        'de',
        'cs',
        'xx_new',
        'fr',
        'CS',
        'ca@valencia',
        '-x',
        'tlh_XX',
        'a'.repeat(60),
      ),
      fc.string({ maxLength: 10 }),
    ),
    name: fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.constant(null),
      fc.constant(''),
      fc.boolean(),
      fc.constant('x'.repeat(120)),
    ),
    direction: fc.constantFrom('', 'ltr', 'rtl', 'up', null, 3),
    population: fc.oneof(
      fc.integer({ min: -5, max: 1_000_000 }),
      fc.string({ maxLength: 6 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    ),
    plural: fc.oneof(
      fc.record(
        {
          number: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.string({ maxLength: 3 })),
          formula: fc.oneof(
            fc.constantFrom(
              'n != 1',
              'n>1',
              '(n==1)?0:1',
              '0',
              'n ?',
              'n%0',
              '',
              'n==1?0:n==2?1:2',
            ),
            fc.string({ maxLength: 20 }),
          ),
          source: fc.constantFrom(0, 1, 5, 'x'),
        },
        { requiredKeys: [] },
      ),
      fc.constant({}),
      fc.string({ maxLength: 5 }),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    ),
  },
  { requiredKeys: [] },
);

/** Bodies a create or an update accepts, so that the draw changes the content too. */
const validFields = fc.record(
  {
    code: fc.stringMatching(/^[a-z]{2,3}_[A-Z]{2}$/),
    name: fc
      .oneof(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 30 }),
      )
      .filter((name) => name.trim() !== '' && !name.includes('\0')),
    direction: fc.constantFrom('', 'ltr', 'rtl'),
    population: fc.integer({ min: 0, max: 1_000_000 }),
    plural: fc.constantFrom(
      { number: 2, formula: 'n != 1' },
      { number: 1, formula: '0' },
      { number: 3, formula: 'n==1 ? 0 : n==2 ? 1 : 2' },
    ),
  },
  { requiredKeys: ['code', 'plural'] },
);

const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: validFields.map((fields) => JSON.stringify(fields)) },
  { weight: 6, arbitrary: languageFields.map((fields) => JSON.stringify(fields)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"code": ',
      '\u0000\u0001',
      'code=zz&name=Z',
      '[[[[[[[[[[',
      '{"plural": {"formula": "n ? : "}}',
      '\xff\xfe',
    ),
  },
  { weight: 1, arbitrary: fc.constant(`{"name":"${'n'.repeat(1024 * 1024)}"}`) },
);

const method = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  },
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'get', 'BREW') },
);

interface Drawn {
  method: string;
  target: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
  lengthOff: number;
}

/** Anything: each part drawn on its own. */
const anyRequest = fc.record({
  method,
  target,
  authorization,
  contentType,
  body,
  lengthOff: fc.constantFrom(0, 0, 0, 0, 0, 0, -1),
});

/** A write as a client means it (a good key, JSON), with fields that may or may not pass. */
const meantWrite = fc
  .tuple(
    fc.oneof(
      fc.constant('POST languages/'),
      fc
        .tuple(
          fc.constantFrom('PATCH', 'PUT', 'DELETE'),
          resourcePath.filter((path) => /^languages\/[^/]+\/$/.test(path)),
        )
        .map(([m, path]) => `${m} ${path}`),
      fc.constantFrom(
        'DELETE translations/alpha/strings/cs/',
        'DELETE translations/beta/docs/de/',
        'DELETE translations/alpha/strings/en/',
        'DELETE translations/beta/empty/he/',
      ),
    ),
    fc.oneof(
      { weight: 3, arbitrary: validFields },
      { weight: 1, arbitrary: languageFields },
      // A key checks out before the body is read: only a write with a good key can meet the 413.
      { weight: 1, arbitrary: fc.constant({ name: 'n'.repeat(1024 * 1024) }) },
    ),
    fc.constantFrom(
      'application/json',
      'application/json',
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
    ),
  )
  .map(([line, fields, contentType]): Drawn => {
    const [verb, path] = line.split(' ') as [string, string];
    const code = /^languages\/([^/]+)\/$/.exec(path)?.[1];
    const sent = verb === 'PUT' && code ? { ...fields, code } : fields;
    return {
      method: verb,
      target: `/mirror/api/${path}`,
      authorization: `Token ${KEY}`,
      contentType,
      body: JSON.stringify(sent),
      lengthOff: 0,
    };
  });

const requestArbitrary = fc
  .oneof({ weight: 4, arbitrary: anyRequest }, { weight: 1, arbitrary: meantWrite })
  .map(({ method, target, authorization, contentType, body, lengthOff }: Drawn) => {
    const bytes = Buffer.from(body, 'utf8');
    const headers = [
      'Host: 127.0.0.1',
      'Connection: close',
      ...(authorization === null ? [] : [`Authorization: ${authorization}`]),
      ...(contentType === null ? [] : [`Content-Type: ${contentType}`]),
      ...(bytes.length > 0 || lengthOff !== 0
        ? [`Content-Length: ${Math.max(0, bytes.length + lengthOff)}`]
        : []),
    ];
    return { head: `${method} ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, body: bytes };
  });
