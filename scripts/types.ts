/**
 * `npm run types`: writes the TypeScript declarations and JSON Schemas of the
 * objects the API serves, per release, for the developers of readers (a
 * docs site's script); `--check` says whether a folder written before is
 * still what this version generates.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { typeFiles } from '../src/api-types/files.ts';
import { defineCommand, runIfMain } from '../src/cli/command.ts';
import { outFolder } from '../src/cli/folders.ts';
import { countOf } from '../src/cli/progress.ts';
import { UsageError } from '../src/errors.ts';
import { writeFileAtomic } from '../src/output/atomic.ts';

export const command = defineCommand({
  name: 'types',
  description:
    'Write TypeScript declarations and JSON Schemas of the objects the snapshot serves, for the scripts that read it. ' +
    'api-<release>.d.ts for each release, and schemas/<release>/<kind>.schema.json, generated from the shapes the build writes.',
  options: {
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'folder to write them into',
      default: 'types',
    },
    check: {
      type: 'boolean',
      description:
        'write nothing; exit 1 naming each file that differs from what this version generates, or is missing',
    },
  },
  epilog:
    "Examples (in a reader's project):\n" +
    '  npx weblate-snapshot types --out src/weblate\n' +
    '  npx weblate-snapshot types --out src/weblate --check    # in CI, when the files are committed',
  json: true,
  async run(args, io) {
    const out = outFolder(args.out);
    if (statSync(out, { throwIfNoEntry: false })?.isFile())
      throw new UsageError(`--out ${out} is a file; give a folder`);
    const files = typeFiles();
    const stale = [...files]
      .filter(([path, text]) => readText(join(out, path)) !== text)
      .map(([path]) => path);
    io.summary?.({
      out,
      files: files.size,
      written: args.check ? 0 : stale.length,
      differing: args.check ? stale : [],
    });
    if (args.check) {
      if (stale.length === 0) {
        io.out(`${out}/ is current: ${countOf(files.size, 'file')}.\n`);
        return 0;
      }
      io.err(
        `${out}/ is not current: ${stale.map((path) => `${path} ${readText(join(out, path)) === null ? 'is missing' : 'differs'}`).join(', ')}.\n`,
      );
      io.err(`Run \`weblate-snapshot types --out ${out}\` to write them.\n`);
      return 1;
    }
    for (const path of stale) await writeFileAtomic(join(out, path), files.get(path)!);
    io.out(
      `Wrote ${countOf(stale.length, 'file')} to ${out}/ (${countOf(files.size - stale.length, 'file')} already current).\n`,
    );
    return 0;
  },
});

await runIfMain(import.meta, command);

// --- internal ---

/** A file's text, or null when there is none. */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
