/**
 * Issue 13, items 4, 10 and 14: base URLs. A base URL ends up in every link and in shell, nginx and
 * redirect files, so it is held to a plain host and a path of URL-safe characters; one that names the
 * API itself, or that does not parse, is refused with a message saying what to pass. Nothing is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../../src/content/base-url.ts';
import { FIXTURES, tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startScriptedServer } from '../support/scripted-server.ts';

const CONTENT = join(FIXTURES, 'minimal/content');

describe('checkBaseUrl', () => {
  it.each([
    ['https://l10n.example.org', 'https://l10n.example.org'],
    ['https://l10n.example.org/', 'https://l10n.example.org'],
    ['http://127.0.0.1:8080/l10n/', 'http://127.0.0.1:8080/l10n'],
    ['https://L10N.Example.org:443/Weblate', 'https://l10n.example.org/Weblate'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
    ['https://example.org/a_b/c_d-e.f~g', 'https://example.org/a_b/c_d-e.f~g'],
  ])('accepts %s as %s', (text, url) => {
    expect(checkBaseUrl(text, { api: true })).toEqual({ ok: true, url });
  });

  it.each([
    ['https://example.org/$(touch$IFS/tmp/x)', 'path has only letters'],
    ["https://example.org/it's", 'path has only letters'],
    ['https://ex;ample.org', 'host has only letters'],
    ['https://ex`ample.org', 'host has only letters'],
    ['http://example.org:99999', 'parses as a URL'],
    ['https://user:pw@example.org', 'without user name or password'],
    ['https://example.org/?q=1', 'with a host and an optional path'],
    ['https://example.org/a/../b', 'no "." or ".." segment'],
    ['ftp://example.org', 'with a host and an optional path'],
  ])('refuses %s', (text, why) => {
    const checked = checkBaseUrl(text);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.expected).toContain(why);
  });

  it.each(['http://host/api', 'http://host/api/', 'https://example.org/l10n/api/'])(
    'refuses %s, which names the API itself, saying what to pass',
    (text) => {
      const checked = checkBaseUrl(text, { api: true });
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.expected).toMatch(
        /the API is at <base URL>\/api\/, so give https?:\/\/(host|example\.org\/l10n)$/,
      );
    },
  );
});

describe('npm run build with a bad base URL', () => {
  it.each([
    ['https://example.org/$(touch$IFS/tmp/x)', 'whose path has only letters'],
    ['http://host/api/', 'so give http://host'],
    ['http://example.org:99999', 'a port from 0 to 65535'],
  ])('refuses --base-url %s before writing anything (exit 1, no stack)', async (url, message) => {
    const out = join(tempDir(), 'dist');
    const result = await runCli('build', ['--content', CONTENT, '--out', out, '--base-url', url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('reports a bad base_url in site.yaml once, at its line, not also as missing', async () => {
    const content = join(tempDir(), 'content');
    writeFiles(content, {
      'site.yaml': '# the site\nbase_url: "https://example.org/$(id)"\n',
      'projects/p/project.yaml': 'name: P\n',
    });
    const result = await runCli('check', ['--content', content]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(content, 'site.yaml')}:2:11  base_url  expected an http(s) URL such as https://l10n.example.org, whose path has only letters`,
    );
    expect(result.stderr).not.toContain('missing');
  });
});

describe('npm run pull from an instance whose links carry a hostile base URL', () => {
  it('refuses before writing any content, and says a re-run cannot help', async () => {
    const hostile = '/$(touch$IFS/tmp/pwned)';
    const server = await startScriptedServer((request) => {
      const origin = `http://127.0.0.1:${request.socket.localPort}`;
      if (request.url === '/api/') {
        const root = Object.fromEntries(
          ['projects', 'components', 'translations', 'languages'].map((name) => [
            name,
            `${origin}${hostile}/api/${name}/`,
          ]),
        );
        return { status: 200, body: JSON.stringify(root) };
      }
      const empty = { count: 0, next: null, previous: null, results: [] };
      return { status: 200, body: JSON.stringify(empty) };
    });
    try {
      const out = join(tempDir(), 'mirror');
      const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'which a build cannot take: expected an http(s) URL such as https://l10n.example.org, whose path has only letters',
      );
      expect(result.stderr).toContain('Nothing was written.');
      expect(result.stderr).not.toContain('run the same command again');
      expect(existsSync(join(out, 'site.yaml'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
