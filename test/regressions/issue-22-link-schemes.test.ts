/**
 * Issue 22, item 11: a `javascript:` (or any non-http(s)) link in a project's `web` or a
 * component's `repoweb` and `license_url` was taken and shown as it was. Content that has one is
 * refused with file:line:column, every one in one run; a pull that reads one from an instance
 * writes it empty with a warning naming the object, so the mirror passes `check`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatContentError, sortContentErrors } from '../../src/errors.ts';
import { openContent } from '../../src/resolve/open.ts';
import { FIXTURES, tempDir, writeFiles } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';

const BASE =
  'name: C\nsource_language: en\nrepo: https://git.test/r.git\nfilemask: po/*.po\nfile_format: po\n';
const EXPECTED = 'expected an http(s) URL such as https://example.org/ or ""';

async function contentErrors(files: Record<string, string>): Promise<string[]> {
  const dir = tempDir();
  writeFiles(join(dir, 'content'), { 'site.yaml': 'base_url: https://l10n.test\n', ...files });
  const opened = await openContent(join(dir, 'content'));
  if (opened.ok) return [];
  return sortContentErrors(opened.errors).map((e) =>
    formatContentError(e).replaceAll(`${dir}/`, ''),
  );
}

describe('links in content', () => {
  it('refuses javascript:, data: and other schemes in web, repoweb and license_url, all in one run', async () => {
    const errors = await contentErrors({
      'projects/p/project.yaml': 'name: P\nweb: "javascript:alert(1)"\n',
      'projects/p/components/c.yaml': `${BASE}repoweb: "data:text/html,<b>x"\nlicense_url: " JavaScript:alert(1)"\n`,
      'projects/p/components/d.yaml': `${BASE}repoweb: "ftp://files.test/{{filename}}"\n`,
    });
    expect(errors).toEqual([
      `content/projects/p/components/c.yaml:6:10  repoweb  ${EXPECTED} (got "data:text/html,<b>x")`,
      `content/projects/p/components/c.yaml:7:14  license_url  ${EXPECTED} or null (got " JavaScript:alert(1)")`,
      `content/projects/p/components/d.yaml:6:10  repoweb  ${EXPECTED} (got "ftp://files.test/{{filename}}")`,
      `content/projects/p/project.yaml:2:6  web  ${EXPECTED} (got "javascript:alert(1)")`,
    ]);
  });

  it('accepts http(s) links, repoweb placeholders, empty links and a null license_url', async () => {
    const errors = await contentErrors({
      'projects/p/project.yaml': 'name: P\nweb: HTTPS://Example.org/\n',
      'projects/p/components/c.yaml': `${BASE}repoweb: "https://git.test/blob/{{branch}}/{{filename}}#L{{line}}"\nlicense_url: null\n`,
      'projects/p/components/d.yaml': `${BASE}repoweb: ""\nlicense_url: ""\n`,
    });
    expect(errors).toEqual([]);
  });
});

describe('npm run pull from an instance that shows such links', () => {
  it('writes them empty with a warning naming each object, and the mirror passes the checks', async () => {
    const recorded = recordedResponses(join(FIXTURES, 'pull-recorded/responses'));
    const hostile = async (request: IncomingMessage): Promise<Scripted> => {
      const answer = await recorded(request);
      if (answer === 'drop') return answer;
      const body = answer.body
        .replace('"web":"https://fossapp.example.org/"', '"web":"javascript:alert(1)"')
        .replaceAll('"repoweb":""', '"repoweb":"data:text/html,x"');
      return { ...answer, body };
    };
    const server = await startScriptedServer(hostile);
    try {
      const out = join(tempDir(), 'mirror');
      const result = await runCli('pull', ['--from', `${server.url}/api/`, '--out', out]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        'Project fossapp has web "javascript:alert(1)", not an http(s) URL, which a build refuses: the mirror writes it empty.',
      );
      expect(result.stderr).toContain(
        'Component fossapp/android has repoweb "data:text/html,x", not an http(s) URL',
      );
      const project = readFileSync(join(out, 'projects/fossapp/project.yaml'), 'utf8');
      expect(project).not.toContain('javascript:');
      const android = readFileSync(join(out, 'projects/fossapp/components/android.yaml'), 'utf8');
      expect(android).not.toContain('data:');
      const checked = await openContent(out);
      expect(checked.ok ? [] : checked.errors).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
