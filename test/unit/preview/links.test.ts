/** The preview's link rewrite: whole URLs under the tree's base URL only, its path kept. */
import { describe, expect, it } from 'vitest';
import { previewRewrite, rewriteLinks } from '../../../src/preview/links.ts';

const ORIGIN = 'http://127.0.0.1:8080';

describe('previewRewrite', () => {
  const rewrite = previewRewrite('https://a.org/mirror', ORIGIN)!;

  it.each([
    ['"https://a.org/mirror/api/"', `"${ORIGIN}/mirror/api/"`],
    ['<a href="https://a.org/mirror">', `<a href="${ORIGIN}/mirror">`],
    ['https://a.org/mirror?page=2', `${ORIGIN}/mirror?page=2`],
    ['"https://a.org/mirrored/x"', '"https://a.org/mirrored/x"'],
    ['"https://a.org/projects/x/"', '"https://a.org/projects/x/"'],
    ['"https://a.org.evil/mirror/x"', '"https://a.org.evil/mirror/x"'],
    ['"https://a.org:8443/mirror/x"', '"https://a.org:8443/mirror/x"'],
  ])('%s reads %s', (text, expected) => {
    expect(rewriteLinks(text, rewrite)).toBe(expected);
  });

  it('stops a host name at its end, and does nothing when the links lead to the preview already', () => {
    const root = previewRewrite('https://a.org', ORIGIN)!;
    expect(rewriteLinks('"https://a.org/api/" "https://a.orgx/" "https://a.org"', root)).toBe(
      `"${ORIGIN}/api/" "https://a.orgx/" "${ORIGIN}"`,
    );
    expect(previewRewrite(`${ORIGIN}/mirror`, ORIGIN)).toBeNull();
  });
});
