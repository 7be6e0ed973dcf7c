/** The preview's link rewrite: whole URLs of the tree only, a base URL's path kept, web URLs only with the status site. */
import { describe, expect, it } from 'vitest';
import { previewRewrite, rewriteLinks } from '../../../src/preview/links.ts';

const ORIGIN = 'http://127.0.0.1:8080';

describe('previewRewrite', () => {
  const rewrite = previewRewrite(
    { baseUrl: 'https://a.org/mirror', webUrl: 'https://a.org', pages: true },
    ORIGIN,
  )!;

  it.each([
    ['"https://a.org/mirror/api/"', `"${ORIGIN}/mirror/api/"`],
    ['"https://a.org/projects/x/"', `"${ORIGIN}/mirror/projects/x/"`],
    ['<a href="https://a.org">', `<a href="${ORIGIN}/mirror">`],
    ['https://a.org/mirror?page=2', `${ORIGIN}/mirror?page=2`],
    ['"https://a.org.evil/x"', '"https://a.org.evil/x"'],
    ['"https://a.org:8443/x"', '"https://a.org:8443/x"'],
    ['"https://a.orgx"', '"https://a.orgx"'],
    ['"http://a.org/"', '"http://a.org/"'],
  ])('%s reads %s', (text, expected) => {
    expect(rewriteLinks(text, rewrite)).toBe(expected);
  });

  it('leaves web links to another Weblate alone without the status site, and does nothing when the links lead there already', () => {
    const apiOnly = previewRewrite(
      { baseUrl: 'https://a.org', webUrl: 'https://weblate.org', pages: false },
      ORIGIN,
    )!;
    expect(rewriteLinks('"https://weblate.org/x" "https://a.org/api/"', apiOnly)).toBe(
      `"https://weblate.org/x" "${ORIGIN}/api/"`,
    );
    expect(previewRewrite({ baseUrl: ORIGIN, webUrl: ORIGIN, pages: true }, ORIGIN)).toBeNull();
  });
});
