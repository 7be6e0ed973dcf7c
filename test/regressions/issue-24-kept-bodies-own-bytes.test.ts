/**
 * Issue 24: a publish at a million translations in under 1 GiB. A build keeps the serialized
 * bytes of the objects nested in many files (components, languages, projects) for its whole run.
 * Cut from Node's shared 8 KiB pool, each of those bytes kept its whole slab alive, with the
 * translations' bodies long gone that had shared it: at 200,000 translations the kept components
 * held some 150 MB of buffers for 70 MB of JSON. Each now owns a buffer of its own size.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import type { Model } from '../../src/model/types.ts';
import { encodeFileText } from '../../src/output/serialize.ts';
import { openContent } from '../../src/resolve/open.ts';
import { createFingerprintCache } from '../../src/tree/fingerprints.ts';
import { createContext, fileGroups } from '../../src/tree/groups.ts';
import { tempDir } from '../helpers.ts';

describe('the bytes a build keeps of nested objects', () => {
  const dir = tempDir();
  let model: Model;

  beforeAll(async () => {
    await writeSyntheticContent(join(dir, 'content'), {
      projects: 2,
      components: 6,
      languages: 3,
      seed: 24,
    });
    const opened = await openContent(join(dir, 'content'));
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    model = opened.model;
  }, 60_000);

  it('own a buffer of their size, not a slice of a slab shared with files rendered between', () => {
    const { bodies } = createContext(model, createFingerprintCache());
    const components = model.projects.flatMap((project) => project.components);
    for (const component of components) {
      // Files encoded between them, as a publish encodes each file it uploads.
      encodeSomeFiles(model);
      const { bytes } = bodies.componentJson(component);
      expect(bytes.byteLength).toBeLessThan(4096);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
    for (const language of model.languages)
      expect(bodies.language(language).bytes.buffer.byteLength).toBe(
        bodies.language(language).bytes.byteLength,
      );
  });

  it('read back as the same JSON text', () => {
    const { bodies } = createContext(model, createFingerprintCache());
    const component = model.projects[0]!.components[0]!;
    const json = JSON.parse(bodies.componentJson(component).text()) as { slug: string };
    expect(json.slug).toBe(component.slug);
  });
});

/** Renders and encodes the first few groups' files. */
function encodeSomeFiles(model: Model): void {
  let groups = 0;
  for (const group of fileGroups(model)) {
    for (const file of group.render()) encodeFileText(file.data);
    if (++groups === 3) return;
  }
}
