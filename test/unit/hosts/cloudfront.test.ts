/**
 * The CloudFront Function, run in a fresh V8 context with the event objects
 * CloudFront documents (viewer request: method, uri, querystring of
 * `{ value }`; viewer response: the request and the response with its
 * headers). Every URL a client asks must come out as the key of its file in
 * the bucket (S3 decodes the request's path once into the key), and every
 * response must gain Vary and the resource's Allow.
 * The upload script is checked for the keys and metadata it writes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  renderCloudFrontFunction,
  renderS3Cors,
  renderS3Upload,
} from '../../../src/hosts/cloudfront.ts';
import { FIXTURES, tempDir, testSettings } from '../../helpers.ts';
import {
  builtStatusSiteCases,
  casesFor,
  checkAnswer,
  statusSiteFiles,
  type StatusSiteNeed,
} from '../../support/status-site.ts';
import { CURRENT_FIXTURE, notFoundBody, requestsFor, fixtureTree } from './tree.ts';

type Handler = (event: unknown) => any;

function loadFunction(source: string): Handler {
  return runInNewContext(`${source}\nhandler;`, {}, { filename: 'function.js' }) as Handler;
}

function viewerRequest(
  handler: Handler,
  method: string,
  uri: string,
  query = '',
  headers: Record<string, string> = {},
) {
  const querystring = Object.fromEntries(
    [...new URLSearchParams(query)].map(([key, value]) => [key, { value }]),
  );
  const given = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), { value }]),
  );
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '127.0.0.1' },
    request: { method, uri, querystring, headers: given, cookies: {} },
  });
}

function viewerResponse(handler: Handler, uri: string) {
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-response' },
    viewer: { ip: '127.0.0.1' },
    request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
    response: {
      statusCode: 200,
      statusDescription: 'OK',
      headers: { 'content-type': { value: 'application/json' } },
      cookies: {},
    },
  });
}

const fixtures = [
  ['features (pagination: path, API under /mirror)', join(FIXTURES, 'features/content'), {}],
  ['query-pagination (?page=N)', join(FIXTURES, 'query-pagination/content'), {}],
  CURRENT_FIXTURE,
  [`${CURRENT_FIXTURE[0]} with ?page=N`, CURRENT_FIXTURE[1], { pagination: 'query' }],
] as const;

/** The key S3 looks up for a request's path: the path decoded once. */
const keyOf = (uri: string) => decodeURIComponent(uri);

describe.each(fixtures)('the CloudFront Function for %s', (_, contentDir, overrides) => {
  it('sends every request of every resource to the key of its file, and adds Vary and Allow to the answer', async () => {
    const tree = await fixtureTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.settings));
    for (const resource of tree.resources) {
      for (const [path, query] of requestsFor(tree, resource)) {
        const request = viewerRequest(handler, 'GET', path, query);
        expect(keyOf(request.uri), `${path}?${query}`).toBe(`${tree.base}/${resource.file}`);
        const response = viewerResponse(handler, request.uri);
        expect(response.headers.allow.value, path).toBe(resource.allow);
        expect(response.headers.vary.value).toBe('Accept');
        expect(response.headers['content-type'].value).toBe('application/json');
        expect(response.headers['access-control-allow-origin'].value).toBe('*');
      }
    }
  });

  it("answers a browser's preflight under the API itself, on any path, and adds the CORS header to its errors", async () => {
    const tree = await fixtureTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.settings));
    const preflight = {
      Origin: 'https://docs.example.net',
      'Access-Control-Request-Method': 'GET',
    };
    for (const path of [
      `${tree.base}/api/languages/`,
      `${tree.base}/api/nope/`,
      `${tree.base}/api`,
    ]) {
      const answer = viewerRequest(handler, 'OPTIONS', path, '', preflight);
      expect(answer.statusCode, path).toBe(200);
      expect(answer.body, path).toBeUndefined();
      expect(
        Object.fromEntries(
          Object.entries(answer.headers as Record<string, { value: string }>).map(([k, v]) => [
            k,
            v.value,
          ]),
        ),
      ).toEqual({
        'content-type': 'text/html; charset=utf-8',
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'DELETE, GET, OPTIONS, PATCH, POST, PUT',
        'access-control-allow-headers':
          'accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with',
        'access-control-max-age': '86400',
      });
    }
    // Outside the API a preflight is nothing special; inside, an OPTIONS without the header is answered as before.
    expect(viewerRequest(handler, 'OPTIONS', '/elsewhere/', '', preflight).uri).toBe('/elsewhere/');
    expect(viewerRequest(handler, 'OPTIONS', `${tree.base}/api/languages/`).statusCode).toBe(405);
    const invalid = viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=0');
    expect(invalid.headers['access-control-allow-origin'].value).toBe('*');
    expect(
      viewerResponse(handler, `${tree.base}/api/nope/`).headers['access-control-allow-origin']
        .value,
    ).toBe('*');
    expect(
      viewerResponse(handler, '/elsewhere/index.html').headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it('answers JSON 404s for invalid pages and unknown formats, in the flavour of the tree', async () => {
    const tree = await fixtureTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.settings));
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=0')).toMatchObject({
      statusCode: 404,
      body: notFoundBody(tree.settings, 'Invalid page.'),
    });
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/`, 'format=xml')).toMatchObject({
      statusCode: 404,
      body: notFoundBody(tree.settings),
    });
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=1').uri).toBe(
      `${tree.base}/api/languages/index.json`,
    );
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/projects/one/`, 'page=abc').uri).toMatch(
      /\/api\/projects\/one\/index\.json$/,
    );
  });

  it('leaves requests outside the API to the bucket', async () => {
    const tree = await fixtureTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.settings));
    expect(viewerRequest(handler, 'GET', '/elsewhere/').uri).toBe('/elsewhere/');
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/nope/`).uri).toBe(
      `${tree.base}/api/nope/`,
    );
  });
});

it('answers 405 with the Allow of the resource (4.x)', async () => {
  const tree = await fixtureTree(join(FIXTURES, 'features/content'));
  const post = viewerRequest(
    loadFunction(renderCloudFrontFunction(tree.settings)),
    'POST',
    `${tree.base}/api/languages/`,
  );
  expect(post).toMatchObject({
    statusCode: 405,
    body: '{"detail":"Method \\"POST\\" not allowed."}\n',
  });
  expect(post.headers.allow.value).toBe('GET, POST, HEAD, OPTIONS');
});

describe('the CloudFront Function of the 2026.8 flavour', () => {
  const load = async () => {
    const tree = await fixtureTree(CURRENT_FIXTURE[1]);
    return { tree, handler: loadFunction(renderCloudFrontFunction(tree.settings)) };
  };
  const body = (code: string, detail: string) =>
    `{"type":"client_error","errors":[{"code":"${code}","detail":"${detail.replaceAll('"', '\\"')}","attr":null}]}\n`;

  it('answers a write 401 with WWW-Authenticate (permissions come before methods), and OPTIONS 405', async () => {
    const { tree, handler } = await load();
    const post = viewerRequest(handler, 'POST', `${tree.base}/api/components/`);
    expect(post).toMatchObject({
      statusCode: 401,
      body: body('not_authenticated', 'Authentication credentials were not provided.'),
    });
    expect(post.headers['www-authenticate'].value).toBe('Token');
    expect(post.headers.allow.value).toBe('GET, HEAD, OPTIONS');
    const options = viewerRequest(handler, 'OPTIONS', `${tree.base}/api/languages/`);
    expect(options).toMatchObject({
      statusCode: 405,
      body: body('method_not_allowed', 'Method "OPTIONS" not allowed.'),
    });
    // An unknown format is a 404 before anything else.
    expect(
      viewerRequest(handler, 'DELETE', `${tree.base}/api/projects/docs/`, 'format=xml').statusCode,
    ).toBe(404);
  });

  it('answers what Weblate refuses an anonymous reader with its 401 or 403', async () => {
    const { tree, handler } = await load();
    const repository = viewerRequest(
      handler,
      'GET',
      `${tree.base}/api/components/docs/guides%252Fmanual/repository/`,
    );
    expect(repository).toMatchObject({
      statusCode: 403,
      body: body('permission_denied', 'You do not have permission to perform this action.'),
    });
    const reports = viewerRequest(handler, 'GET', `${tree.base}/api/projects/docs/reports/`);
    expect(reports).toMatchObject({
      statusCode: 401,
      body: body('not_authenticated', 'Authentication credentials were not provided.'),
    });
    expect(reports.headers['www-authenticate'].value).toBe('Token');
  });

  it('keeps a component path through categories encoded for S3, and matches no path with a bare %2F', async () => {
    const { tree, handler } = await load();
    const request = viewerRequest(
      handler,
      'GET',
      `${tree.base}/api/components/docs/guides%252Fapi%252Finternals%252Freference/`,
    );
    expect(request.uri).toBe(
      `${tree.base}/api/components/docs/guides%252Fapi%252Finternals%252Freference/index.json`,
    );
    const bare = viewerRequest(handler, 'GET', `${tree.base}/api/components/docs/guides%2Fmanual/`);
    expect(bare.uri).toBe(`${tree.base}/api/components/docs/guides%2Fmanual/`);
  });
});

it.each([
  ['4', false],
  ['4', true],
  ['2026.8', false],
  ['2026.8', true],
] as const)(
  "stays within CloudFront Functions' 10 KB (flavour %s, status site %s)",
  (version, pages) => {
    const settings = testSettings({
      baseUrl: 'https://l10n.example.org/mirror',
      weblateVersion: version,
      pages,
    });
    expect(Buffer.byteLength(renderCloudFrontFunction(settings))).toBeLessThanOrEqual(10 * 1024);
  },
);

describe.each([
  ['4', ''],
  ['4', '/mirror'],
  ['2026.8', ''],
  ['2026.8', '/mirror'],
] as const)(
  'the CloudFront Function of a status site (flavour %s, base path "%s")',
  (version, base) => {
    const settings = testSettings({
      baseUrl: `https://l10n.example.org${base}`,
      weblateVersion: version,
      pages: true,
    });
    const handler = loadFunction(renderCloudFrontFunction(settings));
    const files = statusSiteFiles(version);
    const cloudfront = (url: string) => throughCloudFront(handler, (key) => files[key], base, url);

    it('answers every request it can as Weblate does', () => {
      const cases = casesFor(version, CLOUDFRONT_CAN);
      for (const entry of cases)
        checkAnswer(entry, cloudfront(`${base}${entry.url}`), {
          base,
          types: false,
          disposition: true,
        });
      expect(cases.length).toBeGreaterThan(40);
    });

    it('keeps the query on a 301, and leaves the charts of components inside categories to their own keys', () => {
      expect(cloudfront(`${base}/projects/demo?x=1`).headers('location')).toBe(
        `${base}/projects/demo/?x=1`,
      );
      const own =
        version === '4'
          ? '/widgets/demo/-/ui/horizontal-blue.svg'
          : '/widget/demo/docs/guides/manual/horizontal-blue.svg';
      expect(cloudfront(`${base}${own}`).body).toBe(files[own.slice(1)]);
    });
  },
);

/** The function's viewer request, then S3 (the key: the path decoded once, under the base path), then its viewer response. */
function throughCloudFront(
  handler: Handler,
  read: (key: string) => string | undefined,
  base: string,
  url: string,
) {
  const [path, query] = url.split('?') as [string, string | undefined];
  const request = viewerRequest(handler, 'GET', path, query ?? '');
  if (request.statusCode)
    return {
      status: request.statusCode as number,
      body: '',
      headers: (name: string) => request.headers[name]?.value,
    };
  const body = read(keyOf(request.uri as string).slice(base.length + 1));
  const response = handler({
    version: '1.0',
    context: { eventType: 'viewer-response' },
    viewer: { ip: '127.0.0.1' },
    request: { method: 'GET', uri: request.uri, querystring: {}, headers: {}, cookies: {} },
    response: {
      statusCode: body === undefined ? 404 : 200,
      statusDescription: '',
      headers: {},
      cookies: {},
    },
  });
  return {
    status: body === undefined ? 404 : 200,
    body,
    headers: (name: string) => response.headers[name]?.value,
  };
}

/** What the function can do for the status site: it cannot look for a key first; the types are the keys' metadata (npm run deploy). */
const CLOUDFRONT_CAN: StatusSiteNeed[] = [
  'no-slash',
  'csv-query',
  'alias',
  'redirect',
  'folder',
  'disposition',
];

describe.each([
  ['4', join(FIXTURES, 'minimal/content'), {}],
  ['2026.8', join(FIXTURES, 'current/content'), { pages: true }],
] as const)(
  'the CloudFront Function for the status site a build writes (flavour %s)',
  (version, contentDir, overrides) => {
    it('answers every request for its pages, badges, charts and exports that it can', async () => {
      const tree = await fixtureTree(contentDir, overrides);
      const handler = loadFunction(renderCloudFrontFunction(tree.settings));
      const read = (file: string) => tree.files.get(file);
      const cases = builtStatusSiteCases(tree.files.keys(), version).filter((entry) =>
        entry.needs.every((need) => CLOUDFRONT_CAN.includes(need)),
      );
      for (const entry of cases) {
        const answer = throughCloudFront(handler, read, tree.base, `${tree.base}${entry.url}`);
        checkAnswer(entry, answer, { base: tree.base, types: false, disposition: true, read });
      }
      expect(cases.length).toBeGreaterThan(60);
    });
  },
);

describe('the S3 bucket CORS configuration', () => {
  it('lets every origin read, with the request headers and lifetime of Weblate', () => {
    expect(JSON.parse(renderS3Cors())).toEqual({
      CORSRules: [
        {
          AllowedOrigins: ['*'],
          AllowedMethods: ['GET', 'HEAD'],
          AllowedHeaders: [
            'accept',
            'authorization',
            'content-type',
            'user-agent',
            'x-csrftoken',
            'x-requested-with',
          ],
          MaxAgeSeconds: 86400,
        },
      ],
    });
  });
});

describe('the S3 upload script', () => {
  /** Runs the script with an `aws` on PATH that writes its arguments, one a line, to a file: what it would run. */
  function runUpload(
    baseUrl: string,
    pages = false,
    write: (tree: string) => void = () => undefined,
  ): { calls: string[][]; dir: string } {
    const dir = tempDir();
    const script = join(dir, 'tree/hosts/s3/upload.sh');
    mkdirSync(join(dir, 'tree/hosts/s3'), { recursive: true });
    write(join(dir, 'tree'));
    writeFileSync(script, renderS3Upload(testSettings({ baseUrl, pagination: 'query', pages })));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin/aws'),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done >> '${dir}/calls'\necho --- >> '${dir}/calls'\n`,
      { mode: 0o755 },
    );
    execFileSync('sh', [script, 'my-bucket'], {
      cwd: dir,
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
    });
    const calls = readFileSync(join(dir, 'calls'), 'utf8')
      .split('---\n')
      .filter(Boolean)
      .map((call) => call.trimEnd().split('\n'));
    return { calls, dir };
  }

  it('uploads the tree under the keys of its URL paths as application/json', () => {
    const { calls, dir } = runUpload('https://cdn.example.org/l10n');
    const tree = join(realpathSync(dir), 'tree');
    expect(calls).toEqual([
      [
        's3',
        'sync',
        `${tree}/api`,
        's3://my-bucket/l10n/api',
        '--delete',
        '--no-follow-symlinks',
        '--content-type',
        'application/json',
      ],
      [
        's3',
        'cp',
        `${tree}/404.html`,
        's3://my-bucket/l10n/404.html',
        '--no-follow-symlinks',
        '--content-type',
        'application/json',
      ],
    ]);
  });

  it("uploads the status site's folders with the type of each kind of file, and skips a folder the tree lacks", () => {
    const { calls, dir } = runUpload('https://cdn.example.org/l10n', true, (tree) => {
      for (const [path, data] of Object.entries(statusSiteFiles('4')).filter(
        ([path]) => !path.startsWith('engage/'),
      )) {
        mkdirSync(join(tree, path, '..'), { recursive: true });
        writeFileSync(join(tree, path), data);
      }
    });
    const tree = join(realpathSync(dir), 'tree');
    const sync = (folder: string, extension: string, type: string) => [
      's3',
      'sync',
      `${tree}/${folder}`,
      `s3://my-bucket/l10n/${folder}`,
      '--delete',
      '--no-follow-symlinks',
      '--exclude',
      '*',
      '--include',
      `*${extension}`,
      '--content-type',
      type,
    ];
    expect(calls.slice(2)).toEqual([
      [
        's3',
        'cp',
        `${tree}/index.html`,
        's3://my-bucket/l10n/index.html',
        '--no-follow-symlinks',
        '--content-type',
        'text/html; charset=utf-8',
      ],
      sync('languages', '.html', 'text/html; charset=utf-8'),
      sync('projects', '.html', 'text/html; charset=utf-8'),
      sync('translate', '.html', 'text/html; charset=utf-8'),
      sync('static', '.css', 'text/css; charset=utf-8'),
      sync('widgets', '.html', 'text/html; charset=utf-8'),
      sync('widgets', '.svg', 'image/svg+xml; charset=utf-8'),
      sync('widgets', '.png', 'image/png'),
      sync('exports', '.json', 'application/json'),
      sync('exports', '.csv', 'text/csv; charset=utf-8'),
    ]);
  });

  // Issue 13, item 10: the prefix went unquoted into the shell. A base URL is checked before it gets here
  // (content/base-url.ts); the script quotes it anyway, so even a path that got through runs nothing.
  it('passes a hostile path to aws as text and runs none of it (issue 13)', () => {
    const hostile = "https://cdn.example.org/$(touch$IFS./pwned)/it's`touch$IFS./pwned2`";
    const { calls, dir } = runUpload(hostile);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(existsSync(join(dir, 'pwned2'))).toBe(false);
    expect(calls[0]![3]).toBe(`s3://my-bucket${new URL(hostile).pathname}/api`);
  });
});
