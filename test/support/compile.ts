/**
 * Vitest's global setup: the sources compiled once, as bin/compiled.js compiles them for the
 * commands, before any test file starts. Tests that need a real process then start the compiled
 * script with node (see helpers.ts#scriptArgs), without tsx's second or two, and no two test
 * workers compile at the same time.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: plain JavaScript without declarations, checked by its own tests.
import { compiledTree } from '../../bin/compiled.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled tree's folder, or '' where it cannot be compiled (tests then run tsx). */
    compiledRoot: string;
  }
}

export default async function compile(project: TestProject): Promise<void> {
  const tree = (await compiledTree()) as URL | null;
  project.provide('compiledRoot', tree ? fileURLToPath(tree) : '');
  // In watch mode, a source edited since is compiled again before the tests run again.
  project.onTestsRerun(async () => {
    await compiledTree();
  });
}
