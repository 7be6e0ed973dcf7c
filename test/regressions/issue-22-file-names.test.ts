/**
 * Issue 22, item 11: slugs and codes become folder names of the tree, which is copied to hosts
 * and file systems that Linux is not. A device name Windows reserves (`con`, `NUL`, `com1`, …)
 * as a project, component or category slug or a language code, and two language codes that
 * differ only in letter case, are refused with file:line:column, every one in one run, before
 * anything is written. A pull that reads such a name stops before it writes; the sidecar
 * refuses it. (Slugs of projects, and of one project's components, that differ only in case
 * were refused already; they are held here too.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatContentError, sortContentErrors } from '../../src/errors.ts';
import { openContent } from '../../src/resolve/open.ts';
import { FIXTURES, tempDir, writeFiles } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';
import {
  recordedResponses,
  startScriptedServer,
  type Scripted,
} from '../support/scripted-server.ts';
import {
  call,
  JSON_BODY,
  startSidecar,
  workspace,
  type RunningSidecar,
} from '../sidecar/support.ts';

const SITE = { 'site.yaml': 'base_url: https://l10n.test\nweblate_version: "2026.8"\n' };
const BASE =
  'name: C\nsource_language: en\nrepo: https://git.test/r.git\nfilemask: po/*.po\nfile_format: po\n';
const KLINGON = 'name: Klingon\nplural: {number: 2, formula: n != 1}\n';
const RESERVED =
  'not a name Windows reserves (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any letter case)';

function contentFolder(files: Record<string, string>): string {
  const content = join(tempDir(), 'content');
  writeFiles(content, { ...SITE, ...files });
  return content;
}

async function errorsOf(content: string): Promise<string[]> {
  const opened = await openContent(content);
  if (opened.ok) return [];
  const prefix = `${join(content, '..')}/`;
  return sortContentErrors(opened.errors).map((e) => formatContentError(e).replaceAll(prefix, ''));
}

describe('names Windows reserves', () => {
  it('are refused as project, component and category slugs and as language codes, all in one run', async () => {
    const content = contentFolder({
      'projects/con/project.yaml': 'name: Con\n',
      'projects/p/project.yaml': 'name: P\n',
      'projects/p/categories/Aux.yaml': 'name: Aux\n',
      'projects/p/components/NUL.yaml': BASE,
      'projects/p/components/c.yaml': `${BASE}translations:\n  com1: {}\n`,
      'languages/com1.yaml': KLINGON,
      'languages/lpt0.yaml': KLINGON,
    });
    expect(await errorsOf(content)).toEqual([
      `content/languages/com1.yaml:1:1  expected a language code that is ${RESERVED} as the file name (got "com1")`,
      `content/languages/lpt0.yaml:1:1  expected a language code that is ${RESERVED} as the file name (got "lpt0")`,
      `content/projects/con/project.yaml:1:1  expected a slug that is ${RESERVED} as the project folder name (got "con")`,
      `content/projects/p/categories/Aux.yaml:1:1  expected a slug that is ${RESERVED} as the category file name (got "Aux")`,
      `content/projects/p/components/NUL.yaml:1:1  expected a slug that is ${RESERVED} as the component file name (got "NUL")`,
      'content/projects/p/components/c.yaml:7:3  translations.com1  expected a language code from the catalog or languages/ (got "com1"; define it in languages/<code>.yaml)',
    ]);
  });

  it('are names only as a whole: console, com10, nul_x and prn-1 are slugs and codes like any other', async () => {
    const content = contentFolder({
      'projects/console/project.yaml': 'name: Console\n',
      'projects/console/components/com10.yaml': `${BASE}translations:\n  nul_x: {}\n`,
      'projects/console/components/prn-1.yaml': BASE,
      'languages/nul_x.yaml': KLINGON,
    });
    expect(await errorsOf(content)).toEqual([]);
  });

  it('stop npm run build before it writes anything (exit 1, no stack)', async () => {
    const content = contentFolder({
      'projects/p/project.yaml': 'name: P\n',
      'projects/p/components/lpt1.yaml': BASE,
    });
    const out = join(tempDir(), 'dist');
    const result = await runScript('build', ['--content', content, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`expected a slug that is ${RESERVED}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});

describe('names that differ only in letter case', () => {
  it('are refused among the language codes of languages/, at the second file', async () => {
    const content = contentFolder({
      'languages/tlh_XX.yaml': KLINGON,
      'languages/tlh_xx.yaml': KLINGON,
      'projects/p/project.yaml': 'name: P\n',
      'projects/p/components/c.yaml': `${BASE}translations:\n  tlh_XX: {}\n  tlh_xx: {}\n`,
    });
    expect(await errorsOf(content)).toEqual([
      'content/languages/tlh_xx.yaml:1:1  expected a language code that differs from "tlh_XX" (content/languages/tlh_XX.yaml) by more than letter case (got "tlh_xx")',
    ]);
  });

  it('are refused among project slugs and among the components of one project, not across projects', async () => {
    const content = contentFolder({
      'projects/Demo/project.yaml': 'name: Demo\n',
      'projects/demo/project.yaml': 'name: Demo again\n',
      'projects/demo/components/App.yaml': BASE,
      'projects/demo/components/app.yaml': BASE,
      'projects/Demo/components/app.yaml': BASE,
    });
    expect(await errorsOf(content)).toEqual([
      'content/projects/demo/components/app.yaml:1:1  expected a component slug that differs from "App" (content/projects/demo/components/App.yaml) by more than letter case (got "app")',
      'content/projects/demo/project.yaml:1:1  expected a project slug that differs from "Demo" (content/projects/Demo/project.yaml) by more than letter case (got "demo")',
    ]);
  });
});

describe('npm run pull from an instance with a project slugged "con"', () => {
  it('stops before writing anything, naming the slug and what content expects', async () => {
    const recorded = recordedResponses(join(FIXTURES, 'pull-recorded/responses'));
    // The recorded instance, its project internal-docs renamed to con in every link and body.
    const server = await startScriptedServer(async (request): Promise<Scripted> => {
      const original = (request.url ?? '/').replaceAll('/con/', '/internal-docs/');
      const answer = await recorded(Object.assign(request, { url: original }));
      if (answer === 'drop') return answer;
      return { ...answer, body: answer.body.replaceAll('internal-docs', 'con') };
    });
    try {
      const out = join(tempDir(), 'mirror');
      const result = await runScript('pull', ['--from', `${server.url}/api/`, '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `The instance has the project slug "con" (expected a slug that is ${RESERVED}), which content cannot hold on every file system`,
      );
      expect(result.stderr).toContain('Nothing was written.');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(out, 'site.yaml'))).toBe(false);
      expect(existsSync(join(out, 'projects'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('the sidecar asked to create a language "nul"', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());

  it('answers 400 naming the rule, and writes no file', async () => {
    const body = { code: 'nul', name: 'Nul', plural: { number: 2, formula: 'n != 1' } };
    const served = await call(`${sidecar.api}languages/`, 'POST', body, JSON_BODY);
    expect(served.status).toBe(400);
    expect(JSON.parse(served.text).non_field_errors).toEqual([
      `languages/nul.yaml:1:1  expected a language code that is ${RESERVED} as the file name (got "nul")`,
    ]);
    expect(existsSync(join(space.content, 'languages/nul.yaml'))).toBe(false);
    expect(existsSync(join(space.out, 'api/languages/nul'))).toBe(false);
  });
});
