/** What the preview answers, decided from the method and the URL alone. */
import { describe, expect, it } from 'vitest';
import { resolvePreviewRequest } from '../../../src/http/targets.ts';

const file = (path: string, missing = 'Not found.') => ({ kind: 'file', file: path, missing });
const notFound = (detail = 'Not found.') => ({ kind: 'error', status: 404, detail });

describe('resolvePreviewRequest', () => {
  it.each([
    ['/api/', file('api/index.json')],
    ['/api', file('api/index.json')],
    ['/api/index.json', file('api/index.json')],
    ['/api/languages/ca@valencia/', file('api/languages/ca@valencia/index.json')],
    ['/api/languages/ca%40valencia', file('api/languages/ca@valencia/index.json')],
    ['/api/projects/?page=2', file('api/projects/~page/2/index.json', 'Invalid page.')],
    ['/api/projects?format=api&page=3', file('api/projects/~page/3/index.json', 'Invalid page.')],
    ['/api/projects/?page=1', file('api/projects/index.json')],
    ['/api/projects/~page/2/', file('api/projects/~page/2/index.json', 'Invalid page.')],
    ['/api/projects/demo/?page=abc', file('api/projects/demo/index.json')],
    ['/api/projects/?format=json', file('api/projects/index.json')],
  ])('GET %s → %j', (url, answer) => {
    expect(resolvePreviewRequest('GET', url, '')).toEqual(answer);
  });

  it.each([
    ['/api/projects/?page=0', notFound('Invalid page.')],
    ['/api/projects/?page=abc', notFound('Invalid page.')],
    ['/api/projects/?format=xml', notFound()],
    ['/api/nope/', notFound()],
    ['/api//projects/', notFound()],
    ['/api/projects/..%2F..%2Fetc/', notFound()],
    ['/api/projects/%2e%2e/', notFound()],
    ['/api/projects/a%00b/', notFound()],
    ['/api/projects/%E0%A4%A/', notFound()],
    [`/api/projects/${'a'.repeat(300)}/`, notFound()],
    ['/serve.json', notFound()],
    ['/apix/', notFound()],
  ])('GET %s → %j', (url, answer) => {
    expect(resolvePreviewRequest('GET', url, '')).toEqual(answer);
  });

  it('answers other methods with 405 and the Allow of the resource, and unknown paths with 404 first', () => {
    expect(resolvePreviewRequest('POST', '/api/languages/', '')).toEqual({
      kind: 'error',
      status: 405,
      detail: 'Method "POST" not allowed.',
      allow: 'GET, POST, HEAD, OPTIONS',
    });
    expect(resolvePreviewRequest('DELETE', '/api/nope/', '')).toEqual(notFound());
    expect(resolvePreviewRequest('HEAD', '/api/', '')).toEqual(file('api/index.json'));
  });

  it('serves the API under the path of the base URL only', () => {
    expect(resolvePreviewRequest('GET', '/mirror/api/projects/', '/mirror')).toEqual(
      file('api/projects/index.json'),
    );
    expect(resolvePreviewRequest('GET', '/api/projects/', '/mirror')).toEqual(notFound());
  });
});
