/**
 * Issue 14, item 6: every page of the status site is valid HTML, as
 * html-validate (a validator written in JavaScript, from npm) reads it with
 * its recommended rules, in the golden trees: golden.test.ts holds the build
 * of every fixture, and of the 2026.8 fixture with `pages: true`, to its
 * golden tree byte for byte, so these are the pages every build of them writes
 * (validating fresh builds of the same fixtures as well took half the file's time
 * and found nothing more). A tree's 404.html is the site's 404 page when the site is on, and is
 * checked then; `api/404.html`, and 404.html without the site, hold the API's
 * JSON 404 body, which hosts serve for unknown paths.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { HtmlValidate, type Report } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';

const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  // No style attribute at all (issue 26): a strict Content-Security-Policy blocks them.
  rules: { 'no-inline-style': ['error', { allowedProperties: [] }] },
});

/** Every message of a report, one line each: file:line:column rule message. */
function messagesOf(report: Report): string[] {
  return report.results.flatMap((result) =>
    result.messages.map((m) => `${result.filePath}:${m.line}:${m.column} ${m.ruleId} ${m.message}`),
  );
}

/** A 404.html that holds the API's JSON body, not a page. */
function isJsonNotFound(text: string): boolean {
  return text.startsWith('{');
}

async function validatePages(
  pages: Iterable<[string, string]>,
): Promise<{ count: number; messages: string[] }> {
  let count = 0;
  const messages: string[] = [];
  for (const [path, text] of pages) {
    count++;
    messages.push(...messagesOf(await validator.validateString(text, path)));
  }
  return { count, messages };
}

describe('the HTML of the status site (html-validate, recommended rules)', () => {
  it('is valid in every golden tree', async () => {
    const files = await fg('*/**/*.html', { cwd: join(ROOT, 'test/golden') });
    const { count, messages } = await validatePages(
      files
        .map((file): [string, string] => [
          file,
          readFileSync(join(ROOT, 'test/golden', file), 'utf8'),
        ])
        .filter(([, text]) => !isJsonNotFound(text)),
    );
    expect(count).toBeGreaterThan(90);
    expect(messages).toEqual([]);
  });
});
