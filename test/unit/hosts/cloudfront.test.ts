/**
 * The CloudFront Function, run in a fresh V8 context with the event objects
 * CloudFront documents (viewer request: method, uri, querystring of
 * `{ value }`; viewer response: the request and the response with its
 * headers). Every URL a client asks must come out as the key of its file in
 * the bucket, and every response must gain Vary and the resource's Allow.
 * The upload script is checked for the keys and metadata it writes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { renderCloudFrontFunction, renderS3Upload } from '../../../src/hosts/cloudfront.ts';
import { FIXTURES, tempDir, testSite } from '../../helpers.ts';
import { requestsFor, siteTree } from './tree.ts';

type Handler = (event: unknown) => any;

function loadFunction(source: string): Handler {
  return runInNewContext(`${source}\nhandler;`, {}, { filename: 'function.js' }) as Handler;
}

function viewerRequest(handler: Handler, method: string, uri: string, query = '') {
  const querystring = Object.fromEntries([...new URLSearchParams(query)].map(([key, value]) => [key, { value }]));
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '127.0.0.1' },
    request: { method, uri, querystring, headers: {}, cookies: {} },
  });
}

function viewerResponse(handler: Handler, uri: string) {
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-response' },
    viewer: { ip: '127.0.0.1' },
    request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
    response: { statusCode: 200, statusDescription: 'OK', headers: { 'content-type': { value: 'application/json' } }, cookies: {} },
  });
}

const fixtures = [
  ['features (pagination: path, API under /mirror)', join(FIXTURES, 'features/content'), {}],
  ['query-pagination (?page=N)', join(FIXTURES, 'query-pagination/content'), {}],
] as const;

describe.each(fixtures)('the CloudFront Function for %s', (_, contentDir, overrides) => {
  it('sends every request of every resource to the key of its file, and adds Vary and Allow to the answer', async () => {
    const tree = await siteTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.site));
    for (const resource of tree.resources) {
      for (const [path, query] of requestsFor(tree, resource)) {
        const request = viewerRequest(handler, 'GET', path, query);
        expect(request.uri, `${path}?${query}`).toBe(`${tree.base}/${resource.file}`);
        const response = viewerResponse(handler, request.uri);
        expect(response.headers.allow.value, path).toBe(resource.allow);
        expect(response.headers.vary.value).toBe('Accept');
        expect(response.headers['content-type'].value).toBe('application/json');
      }
    }
  });

  it('answers 405 with the Allow of the resource, and JSON 404s for invalid pages and unknown formats', async () => {
    const tree = await siteTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.site));
    const post = viewerRequest(handler, 'POST', `${tree.base}/api/languages/`);
    expect(post).toMatchObject({ statusCode: 405, body: '{"detail":"Method \\"POST\\" not allowed."}\n' });
    expect(post.headers.allow.value).toBe('GET, POST, HEAD, OPTIONS');
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=0')).toMatchObject({
      statusCode: 404,
      body: '{"detail":"Invalid page."}\n',
    });
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/`, 'format=xml')).toMatchObject({
      statusCode: 404,
      body: '{"detail":"Not found."}\n',
    });
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=1').uri).toBe(`${tree.base}/api/languages/index.json`);
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/projects/one/`, 'page=abc').uri).toMatch(/\/api\/projects\/one\/index\.json$/);
  });

  it('leaves requests outside the API to the bucket', async () => {
    const tree = await siteTree(contentDir, overrides);
    const handler = loadFunction(renderCloudFrontFunction(tree.site));
    expect(viewerRequest(handler, 'GET', '/elsewhere/').uri).toBe('/elsewhere/');
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/nope/`).uri).toBe(`${tree.base}/api/nope/`);
  });
});

describe('the S3 upload script', () => {
  /** Runs the script with an `aws` on PATH that writes its arguments, one a line, to a file: what it would run. */
  function runUpload(baseUrl: string): { calls: string[][]; dir: string } {
    const dir = tempDir();
    const script = join(dir, 'tree/hosts/s3/upload.sh');
    mkdirSync(join(dir, 'tree/hosts/s3'), { recursive: true });
    writeFileSync(script, renderS3Upload(testSite({ baseUrl, pagination: 'query' })));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin/aws'),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done >> '${dir}/calls'\necho --- >> '${dir}/calls'\n`,
      { mode: 0o755 },
    );
    execFileSync('sh', [script, 'my-bucket'], { cwd: dir, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` } });
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
      ['s3', 'sync', `${tree}/api`, 's3://my-bucket/l10n/api', '--delete', '--content-type', 'application/json'],
      ['s3', 'cp', `${tree}/404.html`, 's3://my-bucket/l10n/404.html', '--content-type', 'application/json'],
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
