/** The README's first example is real: its YAML, built, gives exactly the JSON it shows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildInMemory, ROOT, tempDir, writeFiles } from './helpers.ts';

it('the README sample builds to the JSON it shows', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const yaml =
    /```yaml\n# content\/projects\/demo-app\/components\/android\.yaml\n([\s\S]*?)```/.exec(
      readme,
    )![1]!;
  const json = /```json\n(\{"total"[\s\S]*?)\n```/.exec(readme)![1]!;
  const content = join(tempDir(), 'content');
  writeFiles(content, {
    'site.yaml': 'base_url: https://l10n.example.org\n',
    'projects/demo-app/project.yaml': 'name: Demo App\n',
    'projects/demo-app/components/android.yaml': yaml,
  });
  const built = await buildInMemory(content);
  expect(built.report.errors).toEqual([]);
  expect(built.files.get('api/translations/demo-app/android/cs/statistics/index.json')).toBe(
    `${json}\n`,
  );
});
