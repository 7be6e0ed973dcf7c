/**
 * The CloudFront Function, run in a fresh V8 context with the event objects
 * CloudFront documents (viewer request: method, uri, querystring of
 * `{ value }`; viewer response: the request and the response with its
 * headers). Every URL a client asks must come out as the key of its file in
 * the bucket, and every response must gain Vary and the resource's Allow.
 * The upload script is checked for the keys and metadata it writes.
 */
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { renderCloudFrontFunction, renderS3Upload } from '../../../src/hosts/cloudfront.ts';
import { FIXTURES } from '../../helpers.ts';
import { requestsFor, siteTree } from './tree.ts';

type Handler = (event: unknown) => any;

function loadFunction(source: string): Handler {
  return runInNewContext(`${source}\nhandler;`, {}, { filename: 'function.js' }) as Handler;
}

function viewerRequest(handler: Handler, method: string, uri: string, query = '') {
  const querystring = Object.fromEntries([...new URLSearchParams(query)].map(([key, value]) => [key, { value }]));
  return handler({ version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '127.0.0.1' }, request: { method, uri, querystring, headers: {}, cookies: {} } });
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
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/languages/`, 'page=0')).toMatchObject({ statusCode: 404, body: '{"detail":"Invalid page."}\n' });
    expect(viewerRequest(handler, 'GET', `${tree.base}/api/`, 'format=xml')).toMatchObject({ statusCode: 404, body: '{"detail":"Not found."}\n' });
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

it('uploads the tree under the keys of its URL paths as application/json', () => {
  const script = renderS3Upload({ baseUrl: 'https://cdn.example.org/l10n', webUrl: 'https://cdn.example.org', pageSize: 50, pagination: 'query' });
  expect(script).toContain('aws s3 sync "$tree/api" "s3://$bucket/l10n/api" --delete --content-type application/json');
  expect(script).toContain('aws s3 cp "$tree/404.html" "s3://$bucket/l10n/404.html" --content-type application/json');
});
