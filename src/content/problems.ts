/**
 * A problem found by a rule that needs more than one file (resolve/), named
 * by file and field path, and pinned to a line and column only when it is
 * reported: errors are rare, so the text of a file is read again then rather
 * than kept.
 */
import type { ContentError } from '../errors.ts';
import { formatPath, locate, type FieldPath } from './locate.ts';
import { parseYaml } from './yaml.ts';

/** A problem found by a cross-file rule, before it is pinned to a line. */
export interface Problem {
  file: string;
  path: FieldPath;
  message: string;
  /** Point at the key of the last path segment rather than its value. */
  atKey?: boolean;
}

/** Turns problems into errors with line and column, reading each file once. */
export function pinProblems(problems: readonly Problem[], readText: (file: string) => string): ContentError[] {
  const sources = new Map<string, ReturnType<typeof parseYaml> | null>();
  return problems.map((problem) => {
    if (!sources.has(problem.file)) {
      let source: ReturnType<typeof parseYaml> | null;
      try {
        source = parseYaml(readText(problem.file));
      } catch {
        source = null; // the file is gone or unreadable: point at its start
      }
      sources.set(problem.file, source);
    }
    const source = sources.get(problem.file);
    const { line, column } = source ? locate(source, problem.path, problem.atKey) : { line: 1, column: 1 };
    return { file: problem.file, line, column, path: formatPath(problem.path), message: problem.message };
  });
}
